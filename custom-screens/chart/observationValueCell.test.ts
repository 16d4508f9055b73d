import { describe, expect, it } from 'vitest';
import type { Observation, Quantity } from '@medplum/fhirtypes';
import { referenceNamesOf } from './referenceNames';
import { observationValueCell } from './observationValueCell';
import { chartColumns } from './tabColumns';

const loinc = (code: string, display: string) => ({ coding: [{ system: 'http://loinc.org', code, display }] });
const mmHg = (value: number): Quantity => ({
  value,
  unit: 'mm[Hg]',
  system: 'http://unitsofmeasure.org',
  code: 'mm[Hg]',
});
const interpretation = (code: string, display: string) => [
  { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation', code, display }] },
];

const observation = (fields: Partial<Observation>): Observation => ({
  resourceType: 'Observation',
  id: 'o1',
  status: 'final',
  code: { text: 'Something measured' },
  effectiveDateTime: '2026-10-02T09:30:00Z',
  ...fields,
});

const bloodPressure = (systolic?: number, diastolic?: number) =>
  observation({
    code: loinc('85354-9', 'Blood pressure panel with all children optional'),
    component: [
      ...(systolic === undefined
        ? []
        : [{ code: loinc('8480-6', 'Systolic blood pressure'), valueQuantity: mmHg(systolic) }]),
      ...(diastolic === undefined
        ? []
        : [{ code: loinc('8462-4', 'Diastolic blood pressure'), valueQuantity: mmHg(diastolic) }]),
    ],
  });

describe('the Observation list’s Value column', () => {
  it('comes between what was measured and its status and date (the generic columns are kept)', () => {
    expect(chartColumns('Observation').map((column) => column.label)).toEqual(['Item', 'Value', 'Status', 'Date']);
    // The status is what a narrow list leaves out; the value never.
    expect(chartColumns('Observation').map((column) => !!column.secondary)).toEqual([false, false, true, false]);
    expect(chartColumns('Encounter').map((column) => column.label)).toEqual(['Item', 'Status', 'Date']);
  });

  it('reads a blood pressure as systolic/diastolic from its components, as the summary does', () => {
    expect(observationValueCell(bloodPressure(118, 76))).toEqual({ kind: 'value', text: '118/76 mmHg' });
    // A missing part is said, not filled with another reading's.
    expect(observationValueCell(bloodPressure(112)).text).toBe('112/– mmHg');
  });

  it('flags a vital out of the summary’s reference range by the part that is out, in words', () => {
    expect(observationValueCell(bloodPressure(128, 82))).toEqual({
      kind: 'value',
      text: '128/82 mmHg',
      flag: 'high',
      word: 'High',
    });
    // Only the part that is out is named; parts out on either side are both named.
    expect(observationValueCell(bloodPressure(128, 76))).toMatchObject({ flag: 'high', word: 'Systolic high' });
    expect(observationValueCell(bloodPressure(128, 58))).toMatchObject({ word: 'Systolic high, Diastolic low' });
    const systolic = observation({ code: loinc('8480-6', 'Systolic blood pressure'), valueQuantity: mmHg(132) });
    expect(observationValueCell(systolic)).toEqual({ kind: 'value', text: '132 mmHg', flag: 'high', word: 'High' });
    const pulse = observation({ code: loinc('8867-4', 'Heart rate'), valueQuantity: { value: 48, unit: '/min' } });
    expect(observationValueCell(pulse)).toEqual({ kind: 'value', text: '48 /min', flag: 'low', word: 'Low' });
    const temperature = observation({
      code: loinc('8310-5', 'Body temperature'),
      valueQuantity: { value: 36.8, unit: 'Cel' },
    });
    expect(observationValueCell(temperature)).toEqual({ kind: 'value', text: '36.8 °C' });
  });

  it('shows any other quantity with its unit, a coded value by its display, a string as written', () => {
    const glucose = observation({ code: loinc('2339-0', 'Glucose'), valueQuantity: { value: 5.4, unit: 'mmol/L' } });
    expect(observationValueCell(glucose).text).toBe('5.4 mmol/L');
    // Imported float noise is cut to four significant digits; the record keeps them all.
    const hemoglobin = observation({ valueQuantity: { value: 14.111263586938584, unit: 'g/dL' } });
    expect(observationValueCell(hemoglobin).text).toBe('14.11 g/dL');
    const smoking = observation({
      code: loinc('72166-2', 'Tobacco smoking status'),
      valueCodeableConcept: {
        coding: [{ system: 'http://snomed.info/sct', code: '266919005', display: 'Never smoker' }],
      },
    });
    expect(observationValueCell(smoking).text).toBe('Never smoker');
    expect(observationValueCell(observation({ valueString: 'Clear, no discharge' })).text).toBe('Clear, no discharge');
    const absent = observation({ dataAbsentReason: { text: 'Not performed' } });
    expect(observationValueCell(absent).text).toBe('Not performed');
    expect(observationValueCell(observation({}))).toEqual({ kind: 'value', text: '' });
  });

  it('flags a result by its interpretation: high, low, critical (AA, LL, HH or A — app-spec §5)', () => {
    const ldl = (code: string, display: string) =>
      observation({
        code: loinc('18262-6', 'LDL Cholesterol'),
        valueQuantity: { value: 180, unit: 'mg/dL' },
        interpretation: interpretation(code, display),
      });
    expect(observationValueCell(ldl('H', 'High'))).toEqual({
      kind: 'value',
      text: '180 mg/dL',
      flag: 'high',
      word: 'High',
    });
    expect(observationValueCell(ldl('L', 'Low'))).toMatchObject({ flag: 'low', word: 'Low' });
    expect(observationValueCell(ldl('HH', 'Critical high'))).toMatchObject({ flag: 'critical', word: 'Critical' });
    expect(observationValueCell(ldl('A', 'Abnormal'))).toMatchObject({ flag: 'critical', word: 'Critical' });
    // The lab's interpretation wins over the vitals' adult range.
    const bp = { ...bloodPressure(128, 82), interpretation: interpretation('LL', 'Critical low') };
    expect(observationValueCell(bp)).toMatchObject({ flag: 'critical', word: 'Critical' });
    // Normal says nothing; another interpretation is said in its own words, unflagged.
    expect(observationValueCell(ldl('N', 'Normal'))).toEqual({ kind: 'value', text: '180 mg/dL' });
    expect(observationValueCell(ldl('POS', 'Positive'))).toEqual({
      kind: 'value',
      text: '180 mg/dL',
      word: 'Positive',
    });
  });

  it('says what a panel (hasMember) holds, by name where its references or the search name them', () => {
    const panel = observation({
      code: loinc('24357-6', 'Urinalysis macro panel'),
      hasMember: [
        { reference: 'Observation/m1', display: 'Glucose [Presence] in Urine' },
        { reference: 'Observation/m2' },
      ],
    });
    expect(observationValueCell(panel).text).toBe('Panel of 2 results: Glucose [Presence] in Urine');
    const names = referenceNamesOf([{ ...observation({ code: { text: 'Protein [Presence] in Urine' } }), id: 'm2' }]);
    expect(observationValueCell(panel, names).text).toBe(
      'Panel of 2 results: Glucose [Presence] in Urine, Protein [Presence] in Urine',
    );
    const unnamed = observation({ hasMember: [{ reference: 'Observation/m3' }] });
    expect(observationValueCell(unnamed).text).toBe('Panel of 1 result (open the panel to see it)');
  });
});
