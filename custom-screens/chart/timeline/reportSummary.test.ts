import { describe, expect, it } from 'vitest';
import type { DiagnosticReport } from '@medplum/fhirtypes';
import { reportSummary } from './reportSummary';

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

// As the Synthea R4 sample bundles write them (synthetic data, Apache-2.0).
const lipidPanel: DiagnosticReport = {
  resourceType: 'DiagnosticReport',
  status: 'final',
  category: [
    { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'LAB', display: 'Laboratory' }] },
  ],
  code: { coding: [{ system: 'http://loinc.org', code: '57698-3', display: 'Lipid Panel' }], text: 'Lipid Panel' },
  subject: { reference: 'Patient/p1' },
  effectiveDateTime: '1986-11-01T19:20:06+00:00',
  issued: '1986-11-01T19:20:06.629+00:00',
  result: [
    { reference: 'Observation/1', display: 'Total Cholesterol' },
    { reference: 'Observation/2', display: 'Triglycerides' },
    { reference: 'Observation/3', display: 'Low Density Lipoprotein Cholesterol' },
    { reference: 'Observation/4', display: 'High Density Lipoprotein Cholesterol' },
  ],
};

describe('report summary on the timeline', () => {
  it('says which results a report holds, the first three by name', () => {
    expect(reportSummary(lipidPanel)).toEqual([
      '4 results: Total Cholesterol, Triglycerides, Low Density Lipoprotein Cholesterol and 1 more',
    ]);
    expect(
      reportSummary({
        ...lipidPanel,
        result: [{ reference: 'Observation/9', display: 'Left ventricular Ejection fraction' }],
      }),
    ).toEqual(['1 result: Left ventricular Ejection fraction']);
    expect(
      reportSummary({ ...lipidPanel, result: [{ reference: 'Observation/1' }, { reference: 'Observation/2' }] }),
    ).toEqual(['2 results']);
  });

  it('puts the conclusion first', () => {
    expect(reportSummary({ ...lipidPanel, conclusion: 'LDL above target' })[0]).toBe('LDL above target');
  });

  it('quotes the opening of a written note, past its date line and headings', () => {
    const note = {
      ...lipidPanel,
      code: { text: 'History and physical note' },
      result: undefined,
      presentedForm: [
        {
          contentType: 'text/plain; charset=utf-8',
          data: base64(
            '1978-01-10\n\n# Chief Complaint\nNo complaints.\n\n# History of Present Illness\nTerry is a 53 year-old.\n',
          ),
        },
      ],
    };
    expect(reportSummary(note)).toEqual(['No complaints. Terry is a 53 year-old.']);
    const long = { ...note, presentedForm: [{ contentType: 'text/plain', data: base64('word '.repeat(100)) }] };
    const [opening] = reportSummary(long);
    expect(opening.length).toBeLessThanOrEqual(160);
    expect(opening.endsWith('…')).toBe(true);
  });

  it('says nothing for a report that names neither', () => {
    expect(reportSummary({ ...lipidPanel, result: undefined })).toEqual([]);
    expect(
      reportSummary({
        ...lipidPanel,
        result: undefined,
        presentedForm: [{ contentType: 'application/pdf', data: 'JVBERi0=' }],
      }),
    ).toEqual([]);
  });
});
