import type { SearchParameter } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { readDefinitionBundle } from '../definitions/definitionFiles';
import { castsAsTypeFilters } from './collectionCast';
import { extractIndexRows } from './indexRows';
import { compileExpression, SearchParameterRegistry } from './searchParameterRegistry';

describe('castsAsTypeFilters', () => {
  it('writes each cast on a path as ofType, in every form R4 uses', () => {
    expect(castsAsTypeFilters('(Observation.component.value as Quantity)')).toBe(
      'Observation.component.value.ofType(Quantity)',
    );
    expect(castsAsTypeFilters('Observation.value as CodeableConcept')).toBe(
      'Observation.value.ofType(CodeableConcept)',
    );
    expect(castsAsTypeFilters('Condition.onset.as(Age)')).toBe('Condition.onset.ofType(Age)');
    expect(castsAsTypeFilters('(Goal.target.due as date)')).toBe('Goal.target.due.ofType(date)');
  });

  it('reads a cast to a System type as the FHIR primitive it means, and leaves everything else as written', () => {
    expect(castsAsTypeFilters('value.as(DateTime)')).toBe('value.ofType(dateTime)');
    expect(castsAsTypeFilters('(Observation.value as String)')).toBe('Observation.value.ofType(string)');
    expect(castsAsTypeFilters("Patient.extension.where(url = 'a as b').value")).toBe(
      "Patient.extension.where(url = 'a as b').value",
    );
    expect(castsAsTypeFilters('(Observation.value as Quantity).value')).toBe(
      'Observation.value.ofType(Quantity).value',
    );
  });

  it('keeps a single value as `as` did, and every value of a collection where `as` failed', () => {
    const single = { resourceType: 'Observation', valueQuantity: { value: 5 } };
    const panel = {
      resourceType: 'Observation',
      component: [
        { code: { text: 'systolic' }, valueQuantity: { value: 142 } },
        { code: { text: 'diastolic' }, valueQuantity: { value: 91 } },
        { code: { text: 'comment' }, valueString: 'seated' },
      ],
    };
    const strict = compileExpression('(Observation.component.value as Quantity)', { fastPath: false });
    expect(() => strict(panel)).toThrow(/singleton/);
    for (const fastPath of [true, false]) {
      const lenient = compileExpression(castsAsTypeFilters('(Observation.component.value as Quantity)'), { fastPath });
      expect(lenient(panel)).toEqual([{ value: 142 }, { value: 91 }]);
      const value = compileExpression(castsAsTypeFilters('(Observation.value as Quantity)'), { fastPath });
      expect(value(single)).toEqual([{ value: 5 }]);
    }
  });
});

describe('R4 search parameters with casts on collections', () => {
  const registry = new SearchParameterRegistry(readDefinitionBundle('search-parameters.json') as SearchParameter[]);

  it("index every component value of a blood-pressure panel, and every use context's value", () => {
    const panel = {
      resourceType: 'Observation',
      status: 'final',
      code: { coding: [{ system: 'http://loinc.org', code: '85354-9' }] },
      component: [
        {
          code: { coding: [{ system: 'http://loinc.org', code: '8480-6' }] },
          valueQuantity: { value: 142, system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
        },
        {
          code: { coding: [{ system: 'http://loinc.org', code: '8462-4' }] },
          valueQuantity: { value: 91, system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
        },
      ],
    };
    const rows = extractIndexRows(panel, registry.forType('Observation'));
    const quantities = (code: string) => rows.quantity.filter((row) => row.code === code).map((row) => row.value);
    expect(quantities('component-value-quantity')).toEqual([142, 91]);
    expect(quantities('combo-value-quantity')).toEqual([142, 91]);

    // code-value-date's component is `value.as(DateTime)`: a FHIR dateTime is now indexed, not only a Period.
    const dated = {
      resourceType: 'Observation',
      status: 'final',
      code: { text: 'Onset' },
      valueDateTime: '2026-03-04',
    };
    const typeOfUrl = (url: string) => registry.typeOfUrl(url);
    const composite = extractIndexRows(dated, registry.forType('Observation'), typeOfUrl).composite.filter(
      (row) => row.code === 'code-value-date',
    );
    expect(composite).toHaveLength(1);

    const valueSet = {
      resourceType: 'ValueSet',
      status: 'active',
      useContext: [
        { code: { code: 'focus' }, valueCodeableConcept: { coding: [{ system: 'urn:a', code: 'one' }] } },
        { code: { code: 'venue' }, valueCodeableConcept: { coding: [{ system: 'urn:a', code: 'two' }] } },
      ],
    };
    const contexts = extractIndexRows(valueSet, registry.forType('ValueSet'))
      .token.filter((row) => row.code === 'context')
      .map((row) => row.value);
    expect(contexts).toEqual(['one', 'two']);
  });
});
