import { describe, expect, it } from 'vitest';
import { holdsRows, inputId, isEmptyValue, splitWords, stripEmpty, withField } from './inputProps';
import { singleCodeSystem, typedCoding } from './typedCoding';
import { parseNumberInput, primitiveInputType } from './PrimitiveInput';
import { referenceSearchField, referenceTargetTypes, REFERENCE_SEARCH_COUNT } from './referenceSearch';
import { statusColor } from './statusColor';
import { timingPeriod } from './TimingInput';

describe('datatype input rules', () => {
  it('number inputs step 1 for integer types and any for decimal; NaN becomes undefined', () => {
    expect(primitiveInputType('integer').step).toBe('1');
    expect(primitiveInputType('positiveInt').step).toBe('1');
    expect(primitiveInputType('unsignedInt').step).toBe('1');
    expect(primitiveInputType('decimal').step).toBe('any');
    expect(primitiveInputType('markdown').multiline).toBe(true);
    expect(parseNumberInput('abc')).toBeUndefined();
    expect(parseNumberInput('')).toBeUndefined();
    expect(parseNumberInput('2.5')).toBe(2.5);
  });

  it('timing repeat period defaults to 1 when not a number', () => {
    expect(timingPeriod('x')).toBe(1);
    expect(timingPeriod('3')).toBe(3);
  });

  it('withField sets a key and removes it when emptied, keeping unknown keys', () => {
    const name = { family: 'X', _family: { extension: [{ url: 'u' }] } };
    expect(withField(name, 'given', ['A'])).toEqual({ family: 'X', _family: name._family, given: ['A'] });
    expect(withField(name, 'family', '')).toEqual({ _family: name._family });
    expect(withField({ a: 1 }, 'a', undefined)).toBeUndefined();
    expect(isEmptyValue({ a: [''] })).toBe(true);
  });

  it('stripEmpty drops form placeholders but keeps nulls that align primitive extensions', () => {
    expect(stripEmpty({ name: [{}, { given: ['A', ''] }], _given: [null, { id: 'x' }], text: '' })).toEqual({
      name: [{ given: ['A'] }],
      _given: [null, { id: 'x' }],
    });
    expect(stripEmpty({ a: { b: [] } })).toBeUndefined();
  });

  it('splits space-separated name parts', () => {
    expect(splitWords('  Ann  Marie ')).toEqual(['Ann', 'Marie']);
    expect(splitWords('  ')).toBeUndefined();
  });

  it('searches references by the type-specific field with _count 10', () => {
    expect(REFERENCE_SEARCH_COUNT).toBe(10);
    expect(referenceSearchField('Device')).toBe('device-name');
    expect(referenceSearchField('Observation')).toBe('code');
    expect(referenceSearchField('Subscription')).toBe('criteria');
    expect(referenceSearchField('User')).toBe('email:contains');
    expect(referenceSearchField('Patient')).toBe('name');
    expect(referenceSearchField('Encounter')).toBe('_id');
    expect(
      referenceTargetTypes([
        'http://hl7.org/fhir/StructureDefinition/Patient',
        'http://hl7.org/fhir/StructureDefinition/Group',
        'http://hl7.org/fhir/StructureDefinition/Patient',
      ]),
    ).toEqual(['Patient', 'Group']);
  });

  it('colours statuses as app-spec §4 says', () => {
    expect(statusColor('active')).toBe('blue');
    expect(statusColor('on-hold')).toBe('yellow');
    expect(statusColor('entered-in-error')).toBe('red');
    expect(statusColor('stat')).toBe('red');
    expect(statusColor('final')).toBe('green');
    expect(statusColor('routine')).toBe('gray');
    expect(statusColor('something-else')).toBe('gray');
  });

  it('keeps a value holding rows the user added (Add inside an empty backbone element) until save', () => {
    expect(holdsRows({ actor: [{}] })).toBe(true);
    expect(holdsRows({ provision: { data: [{}] } })).toBe(true);
    expect(holdsRows({ actor: [] })).toBe(false);
    expect(holdsRows({ text: '' })).toBe(false);
    expect(withField({ status: 'active' }, 'provision', { actor: [{}] })).toEqual({
      status: 'active',
      provision: { actor: [{}] },
    });
    expect(withField({ status: 'active', provision: { actor: [{}] } }, 'provision', {})).toEqual({ status: 'active' });
    expect(stripEmpty({ resourceType: 'Consent', provision: { actor: [{}] } })).toEqual({ resourceType: 'Consent' });
  });

  it('input ids carry array indexes and differ from the path without them', () => {
    expect(inputId('Patient.meta.profile[1]')).toBe('field-Patient-meta-profile-1');
    expect(inputId('ImagingStudy.series[0].instance[2].uid')).toBe('field-ImagingStudy-series-0-instance-2-uid');
    expect(inputId('Consent.sourceReference')).toBe('field-Consent-sourceReference');
  });

  it('a typed code: system|code gives both, a bare code takes the known system', () => {
    const dcm = 'http://dicom.nema.org/resources/ontology/DCM';
    expect(typedCoding(`${dcm}|CT`)).toEqual({ system: dcm, code: 'CT' });
    expect(typedCoding(` ${dcm} | CT `, 'urn:other')).toEqual({ system: dcm, code: 'CT' });
    expect(typedCoding('CT')).toEqual({ code: 'CT' });
    expect(typedCoding('CT', dcm)).toEqual({ system: dcm, code: 'CT' });
    expect(typedCoding('|CT', dcm)).toEqual({ system: dcm, code: 'CT' });
    expect(typedCoding(`${dcm}|`)).toBeUndefined();
    expect(typedCoding('  ')).toBeUndefined();
  });

  it("a ValueSet's one code system, only when all its codes come from it", () => {
    const vs = (include: object[]) => ({
      resourceType: 'ValueSet' as const,
      status: 'active' as const,
      compose: { include },
    });
    expect(singleCodeSystem(vs([{ system: 'urn:a' }, { system: 'urn:a', concept: [{ code: 'x' }] }]))).toBe('urn:a');
    expect(singleCodeSystem(vs([{ system: 'urn:a' }, { system: 'urn:b' }]))).toBeUndefined();
    expect(singleCodeSystem(vs([{ system: 'urn:a' }, { valueSet: ['urn:vs'] }]))).toBeUndefined();
    expect(singleCodeSystem(vs([]))).toBeUndefined();
    expect(singleCodeSystem(undefined)).toBeUndefined();
  });
});
