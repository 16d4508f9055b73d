import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluateValidatorCode, generateValidatorCode } from './standaloneValidators';
import { compiledValidator, structureIssues, useValidatorCode, validateStructure } from './structureValidator';

const syntheaDir = join(import.meta.dirname, '..', '..', 'tests', 'fixtures', 'synthea');

/** Invalid resources, one or more problems each, of the kinds `toIssue` maps. */
const invalid: { name: string; resource: Record<string, unknown> & { resourceType: string } }[] = [
  { name: 'an additional property', resource: { resourceType: 'Patient', favouriteColour: 'blue' } },
  {
    name: 'a nested additional property',
    resource: { resourceType: 'Patient', name: [{ family: 'Li', nickname: 'L' }] },
  },
  { name: 'a wrong type', resource: { resourceType: 'Patient', active: 'yes', name: 'Li' } },
  { name: 'a value outside the enum', resource: { resourceType: 'Patient', gender: 'robot' } },
  { name: 'a date pattern', resource: { resourceType: 'Patient', birthDate: '1980-13-01', id: 'bad id!' } },
  { name: 'a missing required element', resource: { resourceType: 'Observation', status: 'final' } },
  {
    name: 'a quantity of the wrong type',
    resource: { resourceType: 'Observation', code: { text: 'x' }, valueQuantity: { value: 'many' } },
  },
  { name: 'a missing required reference', resource: { resourceType: 'Condition', code: { text: 'Asthma' } } },
  {
    name: 'invalid contained resources (ResourceList)',
    resource: {
      resourceType: 'Patient',
      contained: [
        { resourceType: 'Observation', status: 'nope', extra: 1 },
        { resourceType: 'NoSuchType', id: 'x' },
        { id: 'no-type' },
      ],
    },
  },
  {
    name: 'an invalid resource inside a Bundle entry',
    resource: {
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [{ resource: { resourceType: 'Encounter', status: 'done', class: 'AMB' } }],
    },
  },
  {
    name: 'a Medplum admin type (Login)',
    resource: { resourceType: 'Login', authMethod: 'telepathy', user: { reference: 'User/1' }, unknown: true },
  },
];

function syntheaResources(): Resource[] {
  return readdirSync(syntheaDir)
    .filter((file) => file.endsWith('.json'))
    .flatMap((file) => (JSON.parse(readFileSync(join(syntheaDir, file), 'utf8')) as Bundle).entry ?? [])
    .map((entry) => entry.resource)
    .filter((resource): resource is Resource => resource !== undefined);
}

/** What `toIssue` reads of an error, plus the message. */
function errorsOf(validate: ValidateFunction, resource: unknown): Partial<ErrorObject>[] | undefined {
  validate(resource);
  return validate.errors?.map(({ instancePath, keyword, params, schemaPath, message }) => ({
    instancePath,
    keyword,
    params,
    schemaPath,
    message,
  }));
}

describe('standalone structure validators', () => {
  let standalone: Map<string, ValidateFunction>;

  beforeAll(async () => {
    standalone = evaluateValidatorCode(await generateValidatorCode());
  }, 120_000);

  it('exports a validator for every resource type the schema lists', () => {
    expect(standalone.size).toBeGreaterThan(150);
    for (const type of ['Patient', 'Observation', 'Bundle', 'Login', 'ProjectMembership', 'Bot']) {
      expect(standalone.get(type), type).toBeTypeOf('function');
    }
  });

  it.each(invalid)('reports the same errors and issues as the compiled validator for $name', ({ resource }) => {
    const type = resource.resourceType;
    const fromCode = standalone.get(type)!;
    const fromCompile = compiledValidator(type);
    const codeErrors = errorsOf(fromCode, resource);
    expect(codeErrors?.length).toBeGreaterThan(0);
    expect(codeErrors).toEqual(errorsOf(fromCompile, resource));
    const issues = structureIssues(fromCode, resource);
    expect(issues.length).toBeGreaterThan(0);
    expect(issues).toEqual(structureIssues(fromCompile, resource));
  });

  it('maps the errors to the same OperationOutcome paths as before', () => {
    const issuesOf = (resource: { resourceType: string }) =>
      structureIssues(standalone.get(resource.resourceType)!, resource).map((i) => i.expression?.[0]);
    expect(issuesOf(invalid[0].resource)).toEqual(['Patient.favouriteColour']);
    expect(issuesOf(invalid[1].resource)).toEqual(['Patient.name[0].nickname']);
    expect(issuesOf(invalid[4].resource)).toEqual(expect.arrayContaining(['Patient.birthDate', 'Patient.id']));
    expect(issuesOf(invalid[8].resource)).toEqual(
      expect.arrayContaining([
        'Patient.contained[0].extra',
        'Patient.contained[0].status',
        'Patient.contained[0].code',
        'Patient.contained[1].resourceType',
        'Patient.contained[2].resourceType',
      ]),
    );
    const pattern = structureIssues(standalone.get('Patient')!, invalid[4].resource);
    expect(pattern.find((i) => i.expression?.[0] === 'Patient.birthDate')?.details?.text).toBe('Invalid date format');
  });

  it('accepts every Synthea resource, as the compiled validator does', () => {
    const resources = syntheaResources();
    expect(resources.length).toBeGreaterThan(500);
    const types = new Set(resources.map((resource) => resource.resourceType));
    expect(types.size).toBeGreaterThan(10);
    for (const resource of resources) {
      const label = `${resource.resourceType}/${resource.id}`;
      expect(errorsOf(standalone.get(resource.resourceType)!, resource), label).toBeUndefined();
      expect(errorsOf(compiledValidator(resource.resourceType), resource), label).toBeUndefined();
    }
  });

  it('validates by compiling when kept code does not evaluate', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      useValidatorCode(() => 'exports.Patient = require("node:fs");');
      expect(validateStructure(invalid[3].resource).map((i) => i.expression?.[0])).toEqual(['Patient.gender']);
      expect(validateStructure({ resourceType: 'Patient', gender: 'female' } as { resourceType: string })).toEqual([]);
      // process.emitWarning reports on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.join()).toMatch(/compiling instead: .*may not require "node:fs"/);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('refuses code that requires anything but ajv runtime helpers', () => {
    expect(() => evaluateValidatorCode('exports.Patient = require("node:child_process");')).toThrow(
      /may not require "node:child_process"/,
    );
    expect(() => evaluateValidatorCode('require("ajv/dist/runtime/equal");')).not.toThrow();
  });
});
