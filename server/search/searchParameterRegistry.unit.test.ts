import type { SearchParameter } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { expressionForType, SearchParameterRegistry } from './searchParameterRegistry';
import { extractIndexRows, normalizeSearchString } from './indexRows';

describe('expressionForType', () => {
  it('keeps only the branches of the given type', () => {
    expect(expressionForType('Patient.name | Practitioner.name | Person.name', 'Practitioner')).toBe(
      'Practitioner.name',
    );
    expect(
      expressionForType('(Observation.value as Quantity) | (Observation.value as SampledData)', 'Observation'),
    ).toBe('Observation.value.ofType(Quantity) | Observation.value.ofType(SampledData)');
    expect(expressionForType('Patient.name', 'Observation')).toBeUndefined();
  });

  it('does not split on bars inside parentheses or strings', () => {
    expect(expressionForType("Patient.extension.where(url = 'a|b').value", 'Patient')).toBe(
      "Patient.extension.where(url = 'a|b').value",
    );
  });

  it('turns resolve() is X into a reference-string test', () => {
    expect(
      expressionForType('Observation.subject.where(resolve() is Patient) | Condition.subject', 'Observation'),
    ).toBe("Observation.subject.where(reference.startsWith('Patient/'))");
  });
});

describe('extractIndexRows', () => {
  // The fhirtypes union of base types leaves out the abstract "Resource" that R4's own definitions use.
  const registry = new SearchParameterRegistry([
    {
      resourceType: 'SearchParameter',
      code: 'name',
      type: 'string',
      base: ['Patient'],
      expression: 'Patient.name',
      status: 'active',
      name: 'n',
      url: 'u1',
      description: 'd',
    },
    {
      resourceType: 'SearchParameter',
      code: 'identifier',
      type: 'token',
      base: ['Patient'],
      expression: 'Patient.identifier',
      status: 'active',
      name: 'i',
      url: 'u2',
      description: 'd',
    },
    {
      resourceType: 'SearchParameter',
      code: 'gender',
      type: 'token',
      base: ['Patient'],
      expression: 'Patient.gender',
      status: 'active',
      name: 'g',
      url: 'u3',
      description: 'd',
    },
    {
      resourceType: 'SearchParameter',
      code: 'birthdate',
      type: 'date',
      base: ['Patient'],
      expression: 'Patient.birthDate',
      status: 'active',
      name: 'b',
      url: 'u4',
      description: 'd',
    },
    {
      resourceType: 'SearchParameter',
      code: 'general-practitioner',
      type: 'reference',
      base: ['Patient'],
      expression: 'Patient.generalPractitioner',
      status: 'active',
      name: 'r',
      url: 'u5',
      description: 'd',
    },
    {
      resourceType: 'SearchParameter',
      code: '_tag',
      type: 'token',
      base: ['Resource'],
      expression: 'Resource.meta.tag',
      status: 'active',
      name: 't',
      url: 'u6',
      description: 'd',
    },
  ] as unknown as SearchParameter[]);

  it('extracts one row per value, by parameter type', () => {
    const rows = extractIndexRows(
      {
        resourceType: 'Patient',
        name: [{ family: 'Müller', given: ['Ana', 'Bea'] }],
        identifier: [{ system: 'urn:mrn', value: '42' }],
        gender: 'female',
        birthDate: '1990-03',
        generalPractitioner: [
          { reference: 'Practitioner/p1' },
          { reference: 'https://other.example/fhir/Organization/o9' },
        ],
        meta: { tag: [{ system: 'urn:tags', code: 'vip' }] },
      },
      registry.forType('Patient'),
    );
    expect(rows.string.map((r) => r.normalized)).toEqual(['muller', 'ana', 'bea']);
    expect(rows.token).toEqual(
      expect.arrayContaining([
        { code: 'identifier', system: 'urn:mrn', value: '42', display: null },
        { code: 'gender', system: null, value: 'female', display: null },
        { code: '_tag', system: 'urn:tags', value: 'vip', display: null },
      ]),
    );
    expect(rows.date).toEqual([
      { code: 'birthdate', low: '1990-03-01T00:00:00.000Z', high: '1990-03-31T23:59:59.999Z' },
    ]);
    expect(rows.reference).toEqual([
      { code: 'general-practitioner', target_type: 'Practitioner', target_id: 'p1', reference: 'Practitioner/p1' },
      // Another server's organisation: found by its URL, never as this server's Organization/o9.
      {
        code: 'general-practitioner',
        target_type: null,
        target_id: null,
        reference: 'https://other.example/fhir/Organization/o9',
      },
    ]);
  });

  it('normalizes strings without case or accents', () => {
    expect(normalizeSearchString('ÉLODIE Çağla Zoë')).toBe('elodie cagla zoe');
  });
});

describe('project registries', () => {
  const parameter = (code: string, expression: string, id: string, url = `https://example.org/sp/${id}`) =>
    ({
      resourceType: 'SearchParameter',
      id,
      code,
      type: 'token',
      base: ['Task'],
      expression,
      status: 'active',
      name: code,
      url,
      description: 'd',
    }) as SearchParameter;

  it('layers a project over the base without ever replacing a base code, and forgets on removal', () => {
    const base = new SearchParameterRegistry([parameter('status', 'Task.status', 'base-status', 'base-url')]);
    expect(base.forProject('b')).toBe(base);
    // Even a stored replacement (saved before replacements were refused) cannot change `status`.
    base.putProjectParameter('b', parameter('status', 'Task.intent', 'b-status'));
    base.putProjectParameter('b', parameter('label', 'Task.code.text', 'b-label'));
    const projectB = base.forProject('b');
    expect(projectB).not.toBe(base);
    expect(projectB.get('Task', 'status')?.expression).toBe('Task.status');
    expect(projectB.get('Task', 'label')?.expression).toBe('Task.code.text');
    expect(projectB.forType('Task').map((p) => p.code)).toEqual(['status', 'label']);
    // Other projects see the base only.
    expect(base.forProject('a').get('Task', 'label')).toBeUndefined();
    expect(base.get('Task', 'label')).toBeUndefined();
    expect(base.shadowedBy(parameter('status', 'Task.intent', 'x'))).toEqual([{ base: 'Task', code: 'status' }]);
    expect(base.shadowedBy(parameter('status', 'Task.status', 'x', 'base-url'))).toEqual([]);
    expect(base.shadowedBy(parameter('other', 'Task.status', 'x'))).toEqual([]);

    const before = projectB.version;
    base.removeProjectParameter('b', 'b-label');
    expect(projectB.version).toBeGreaterThan(before);
    expect(projectB.get('Task', 'label')).toBeUndefined();
    expect(projectB.forType('Task').map((p) => p.code)).toEqual(['status']);
    base.replaceProjectParameters('b', [parameter('label2', 'Task.code.text', 'b-label2')]);
    expect(projectB.forType('Task').map((p) => p.code)).toEqual(['status', 'label2']);
  });
});
