import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { validatePrimitives } from './primitiveValidator';

const syntheaDir = join(import.meta.dirname, '..', '..', 'tests', 'fixtures', 'synthea');

/** `expression → text` of each issue, in order. */
function issuesOf(resource: Record<string, unknown>): string[] {
  return validatePrimitives(resource).map((issue) => `${issue.expression?.[0]} → ${issue.details?.text}`);
}

describe('validatePrimitives', { timeout: 60_000 }, () => {
  it('checks primitives in datatypes, arrays and choice elements', () => {
    expect(
      issuesOf({
        resourceType: 'Patient',
        birthDate: '1980-02-30',
        deceasedDateTime: '2020-01-01T10:00:00',
        name: [{ family: 'Li' }, { given: ['Ann', '  '] }],
        multipleBirthInteger: 1.5,
      }),
    ).toEqual([
      'Patient.birthDate → Invalid date format',
      'Patient.deceasedDateTime → Invalid dateTime format',
      'Patient.name[1].given[1] → Invalid string: only white space',
      'Patient.multipleBirthInteger → Expected integer',
    ]);
  });

  it('reports required elements the JSON schema cannot, in backbone elements too', () => {
    expect(
      issuesOf({
        resourceType: 'Observation',
        code: { text: 'Heart rate' },
        component: [{ valueQuantity: { value: 'fast' } }],
      }),
    ).toEqual([
      'Observation.status → Missing required property "status"',
      'Observation.component[0].code → Missing required property "code"',
      'Observation.component[0].valueQuantity.value → Expected decimal',
    ]);
  });

  it('walks contained and bundled resources by their resourceType', () => {
    expect(
      issuesOf({
        resourceType: 'Bundle',
        type: 'collection',
        entry: [
          {
            resource: {
              resourceType: 'Patient',
              contained: [{ resourceType: 'Observation', status: 'final', code: {}, effectiveDateTime: 'soon' }],
            },
          },
        ],
      }),
    ).toEqual(['Bundle.entry[0].resource.contained[0].effectiveDateTime → Invalid dateTime format']);
  });

  it('leaves extensions-only elements, nulls, unknown properties and unknown types to the schema', () => {
    expect(
      issuesOf({
        resourceType: 'Observation',
        _status: { extension: [{ url: 'http://example.org/x', valueString: 'x' }] },
        code: { text: 'x' },
        issued: null,
        favouriteColour: '  ',
        contained: [
          { resourceType: 'NoSuchType', birthDate: 'x' },
          { resourceType: 'constructor', id: ' ' },
          { resourceType: '__proto__', id: ' ' },
          { birthDate: 'x' },
        ],
      }),
    ).toEqual([]);
  });

  it('refuses an extension with neither a value nor extensions, or with both (ext-1), wherever it is', () => {
    const race = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-race';
    expect(
      issuesOf({
        resourceType: 'Patient',
        // What the form saved for a required slice of an unknown extension: a url, no value.
        extension: [
          { url: 'https://nope.example/StructureDefinition/shoe-size' },
          { url: race, valueString: 'x', extension: [{ url: 'text', valueString: 'x' }] },
          { url: race, extension: [{ url: 'text', valueString: 'Mixed' }, { url: 'ombCategory' }] },
        ],
        modifierExtension: [{ url: 'http://example.org/m', extension: [] }],
        _birthDate: { extension: [{ url: 'http://example.org/b' }] },
        name: [{ family: 'Li', extension: [{ url: 'http://example.org/n', valueBoolean: true }] }],
        contained: [{ resourceType: 'Basic', code: { text: 'x' }, extension: [{ url: 'http://example.org/c' }] }],
      }),
    ).toEqual([
      'Patient.extension[0] → Extension https://nope.example/StructureDefinition/shoe-size has neither a value nor nested extensions (ext-1: either extensions or value[x])',
      `Patient.extension[1] → Extension ${race} has both a value and nested extensions (ext-1: either extensions or value[x], not both)`,
      'Patient.extension[2].extension[1] → Extension ombCategory has neither a value nor nested extensions (ext-1: either extensions or value[x])',
      'Patient.modifierExtension[0] → Extension http://example.org/m has neither a value nor nested extensions (ext-1: either extensions or value[x])',
      'Patient._birthDate.extension[0] → Extension http://example.org/b has neither a value nor nested extensions (ext-1: either extensions or value[x])',
      'Patient.contained[0].extension[0] → Extension http://example.org/c has neither a value nor nested extensions (ext-1: either extensions or value[x])',
    ]);
    // A value given only by its primitive extension (`_valueString`) is a value.
    expect(
      issuesOf({
        resourceType: 'Patient',
        extension: [
          {
            url: 'http://example.org/v',
            _valueString: { extension: [{ url: 'http://example.org/absent', valueCode: 'unknown' }] },
          },
        ],
      }),
    ).toEqual([]);
  });

  it('finds nothing in valid Synthea resources', () => {
    const resources = readdirSync(syntheaDir)
      .filter((file) => file.endsWith('.json'))
      .flatMap((file) => (JSON.parse(readFileSync(join(syntheaDir, file), 'utf8')) as Bundle).entry ?? [])
      .map((entry) => entry.resource)
      .filter((resource): resource is Resource => resource !== undefined);
    expect(resources.length).toBeGreaterThan(500);
    for (const resource of resources) {
      expect(
        issuesOf(resource as unknown as Record<string, unknown>),
        `${resource.resourceType}/${resource.id}`,
      ).toEqual([]);
    }
  });
});
