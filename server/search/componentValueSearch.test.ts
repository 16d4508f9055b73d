import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { http } from '../../tests/integration/fhirClient';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/** R4 writes these parameters with `as` on a collection (collectionCast.ts): a panel of two components must be found. */
describe('searching the values of an Observation with several components', () => {
  const tag = `bp-${randomUUID().slice(0, 8)}`;
  const ids: Record<string, string> = {};
  const bloodPressure = (systolic: number, diastolic: number) => ({
    resourceType: 'Observation',
    status: 'final',
    meta: { tag: [{ system: 'urn:hearth:test', code: tag }] },
    code: { coding: [{ system: 'http://loinc.org', code: '85354-9', display: 'Blood pressure panel' }] },
    component: [
      {
        code: { coding: [{ system: 'http://loinc.org', code: '8480-6', display: 'Systolic' }] },
        valueQuantity: { value: systolic, unit: 'mmHg', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
      },
      {
        code: { coding: [{ system: 'http://loinc.org', code: '8462-4', display: 'Diastolic' }] },
        valueQuantity: { value: diastolic, unit: 'mmHg', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
      },
    ],
  });

  beforeAll(async () => {
    for (const [name, body] of [
      ['high', bloodPressure(162, 101)],
      ['normal', bloodPressure(118, 76)],
    ] as const) {
      const created = await http<any>('POST', 'fhir/R4/Observation', { body });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      ids[name] = created.body.id;
    }
  });

  const found = async (query: string) => {
    const answer = await http<any>('GET', `fhir/R4/Observation?_tag=urn:hearth:test|${tag}&${query}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return ((answer.body.entry ?? []) as any[]).map((entry) => entry.resource.id as string).sort();
  };

  it('finds a panel by any component value (component-value-quantity, combo-value-quantity)', async () => {
    expect(await found('component-value-quantity=gt140')).toEqual([ids.high]);
    expect(await found('component-value-quantity=lt80')).toEqual([ids.normal]);
    expect(await found('combo-value-quantity=gt100')).toEqual([ids.high, ids.normal].sort());
    expect(await found('component-value-quantity=gt200')).toEqual([]);
  });

  it('keeps the composite pairs of code and value per component', async () => {
    expect(await found('component-code-value-quantity=http://loinc.org|8462-4$gt100')).toEqual([ids.high]);
    expect(await found('component-code-value-quantity=http://loinc.org|8480-6$gt170')).toEqual([]);
  });
});
