import { describe, expect, it } from 'vitest';
import type { Resource } from '@medplum/fhirtypes';
import { referenceNamesOf, type ReferenceNames } from './referenceNames';
import { listDateText } from './listDateParts';
import { chartColumns, type ChartCell } from './tabColumns';

const cells = (resource: Record<string, unknown>, names?: ReferenceNames) =>
  chartColumns(resource.resourceType as string).map((column) => [
    column.label,
    column.cell(resource as unknown as Resource, names),
  ]);
/** What a cell reads as: its text, or a date's day and time. */
const textOf = (cell: unknown) => {
  const read = cell as ChartCell;
  return read.kind === 'date' ? listDateText(read) : (read as { text: string }).text;
};

describe('chart tab columns (app-spec §2.3)', () => {
  it('a medication request reads as medication, status badge, intent, dosage, requester, date', () => {
    expect(
      cells({
        resourceType: 'MedicationRequest',
        id: 'm1',
        status: 'active',
        intent: 'order',
        medicationCodeableConcept: { text: 'Amoxicillin 500 mg' },
        dosageInstruction: [{ text: 'Twice daily' }],
        requester: { reference: 'Practitioner/1', display: 'Dr. Alice Carter' },
        authoredOn: '2025-03-04',
        meta: { lastUpdated: '2025-03-05T00:00:00Z' },
      }),
    ).toEqual([
      ['Medication', { kind: 'text', text: 'Amoxicillin 500 mg' }],
      ['Status', { kind: 'status', status: 'active' }],
      ['Intent', { kind: 'text', text: 'order' }],
      ['Dosage', { kind: 'text', text: 'Twice daily' }],
      ['Requester', { kind: 'text', text: 'Dr. Alice Carter' }],
      ['Ordered', { kind: 'date', day: expect.stringMatching(/2025/), dateTime: '2025-03-04' }],
    ]);
  });

  it('every date of every tab is a date cell (one unbroken line), and a missing one an empty cell', () => {
    const issued = '1986-11-01T19:20:06.629+00:00';
    const dated = [
      ['Task', 'Created', { status: 'ready', authoredOn: issued }],
      ['Task', 'Due', { status: 'completed', restriction: { period: { end: '2026-11-26' } } }],
      ['MedicationRequest', 'Ordered', { authoredOn: issued }],
      ['ServiceRequest', 'Ordered', { authoredOn: issued }],
      ['Device', 'Expires', { expirationDate: issued }],
      ['DiagnosticReport', 'Issued', { issued }],
      ['DocumentReference', 'Date', { date: issued }],
      ['Appointment', 'Start', { start: issued }],
      ['Appointment', 'End', { end: issued }],
      ['CarePlan', 'Start', { period: { start: issued } }],
      ['CarePlan', 'End', { period: { end: issued } }],
      ['Observation', 'Date', { effectiveDateTime: issued }],
    ] as const;
    for (const [resourceType, label, fields] of dated) {
      const row = new Map(cells({ resourceType, ...fields }) as [string, unknown][]);
      expect(row.get(label), `${resourceType} ${label}`).toMatchObject({
        kind: 'date',
        day: expect.stringMatching(/19\d\d|2026/),
        dateTime: expect.stringMatching(/^(1986-11-01T19:20:06\.629\+00:00|2026-11-26)$/),
      });
      expect(new Map(cells({ resourceType }) as [string, unknown][]).get(label)).toEqual({ kind: 'text', text: '' });
    }
    // The report's issue time is kept, as a part of its own: two reports of one day are told apart by it.
    const report = new Map(cells({ resourceType: 'DiagnosticReport', issued }) as [string, unknown][]);
    expect(report.get('Issued')).toMatchObject({
      day: expect.stringMatching(/1986/),
      time: expect.stringMatching(/:/),
    });
    expect(textOf(report.get('Issued'))).toMatch(/1986, .*:/);
  });

  it('an appointment’s end on the day it started reads as its time alone; on another day, in full', () => {
    const sameDay = cells({ resourceType: 'Appointment', start: '2026-12-31T12:00:00Z', end: '2026-12-31T12:45:00Z' });
    expect(sameDay[3]).toEqual([
      'End',
      { kind: 'date', dateTime: '2026-12-31T12:45:00Z', day: '', time: expect.stringMatching(/:45/) },
    ]);
    expect(textOf(sameDay[3]![1])).not.toMatch(/2026/);
    const overnight = cells({
      resourceType: 'Appointment',
      start: '2026-12-01T10:00:00Z',
      end: '2026-12-03T10:00:00Z',
    });
    expect(textOf(overnight[3]![1])).toMatch(/2026, /);
    const noStart = cells({ resourceType: 'Appointment', end: '2026-12-31T12:45:00Z' });
    expect(textOf(noStart[3]![1])).toMatch(/2026, /);
  });

  it('never shows the id or the last-updated stamp as a column', () => {
    for (const type of [
      'Task',
      'MedicationRequest',
      'ServiceRequest',
      'Device',
      'DiagnosticReport',
      'DocumentReference',
      'Appointment',
      'CarePlan',
      'Observation',
    ]) {
      const labels = chartColumns(type).map((column) => column.label);
      expect(labels).not.toContain('ID');
      expect(labels).not.toContain('Last Updated');
      expect(labels).toContain('Status');
    }
  });

  it('an appointment lists who it is with, not the patient; a missing status is an empty cell', () => {
    const row = cells({
      resourceType: 'Appointment',
      description: 'Follow-up',
      participant: [
        { actor: { reference: 'Patient/p1', display: 'Wendy' } },
        { actor: { reference: 'Practitioner/a', display: 'Dr. Alice Carter' } },
      ],
    });
    expect(row[0]).toEqual(['Appointment', { kind: 'text', text: 'Follow-up' }]);
    expect(row[1]).toEqual(['Status', { kind: 'text', text: '' }]);
    expect(row[4]).toEqual(['With', { kind: 'text', text: 'Dr. Alice Carter' }]);
  });

  it('a task due date comes from restriction.period.end and priority is a badge', () => {
    const row = cells({
      resourceType: 'Task',
      code: { text: 'Review labs' },
      priority: 'urgent',
      restriction: { period: { end: '2030-01-02' } },
    });
    expect(row[2]).toEqual(['Priority', { kind: 'status', status: 'urgent' }]);
    expect(textOf(row[4][1])).toMatch(/2030/);
  });

  it('an open task shows how urgent its due date is; a done one, the plain day; when written, the day alone', () => {
    const task = {
      resourceType: 'Task',
      code: { text: 'Call back' },
      status: 'ready',
      authoredOn: '2026-11-22T05:38:00Z',
      restriction: { period: { end: '2026-11-26' } },
    } as const;
    const open = cells(task);
    expect(open[4]).toEqual(['Due', { kind: 'due', due: '2026-11-26' }]);
    expect(open[5][0]).toBe('Created');
    expect(textOf(open[5][1])).toMatch(/2026/);
    expect(textOf(open[5][1])).not.toMatch(/:/);

    const done = cells({ ...task, status: 'completed' });
    expect(done[4][1]).toMatchObject({ kind: 'date', dateTime: '2026-11-26' });
    expect(textOf(done[4][1])).toMatch(/2026/);
    expect(cells({ ...task, status: 'cancelled' })[4][1]).toMatchObject({ kind: 'date' });
    expect(cells({ ...task, restriction: undefined })[4]).toEqual(['Due', { kind: 'text', text: '' }]);
  });

  // Records as the Synthea R4 sample bundles write them (synthetic data, Apache-2.0).
  it('an imported order reads its medication, prescriber and structured dosage from where they are', () => {
    const names = referenceNamesOf([
      {
        resourceType: 'Medication',
        id: 'med-1',
        code: {
          coding: [
            { system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '316672', display: 'Simvistatin 10 MG' },
          ],
        },
      },
      { resourceType: 'Practitioner', id: 'pr-1', name: [{ family: 'Labadie', given: ['Rebecca'], prefix: ['Dr.'] }] },
    ] as Resource[]);
    const row = cells(
      {
        resourceType: 'MedicationRequest',
        status: 'active',
        intent: 'order',
        medicationReference: { reference: 'Medication/med-1' },
        requester: { reference: 'Practitioner/pr-1' },
        authoredOn: '1977-07-30T21:51:36+00:00',
        dosageInstruction: [
          {
            sequence: 1,
            timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd' } },
            asNeededBoolean: false,
            doseAndRate: [{ doseQuantity: { value: 1 } }],
          },
        ],
      },
      names,
    );
    expect(textOf(row[0][1])).toBe('Simvistatin 10 MG');
    expect(textOf(row[3][1])).toBe('1 dose, once a day');
    expect(textOf(row[4][1])).toMatch(/Rebecca Labadie/);
    // The day it was ordered, without a time of day.
    expect(textOf(row[5][1])).toMatch(/1977/);
    expect(textOf(row[5][1])).not.toMatch(/:/);
    // Without the included resources: never the bare id.
    const bare = cells({
      resourceType: 'MedicationRequest',
      medicationReference: { reference: 'Medication/med-1' },
      requester: { reference: 'Practitioner/694a34a3-af6e-49a5-89e3-adc7235bc923' },
    });
    expect(textOf(bare[0][1])).toBe('');
    expect(textOf(bare[4][1])).toBe('Practitioner');
  });

  it('a report reads its category from the list of categories', () => {
    const row = cells({
      resourceType: 'DiagnosticReport',
      status: 'final',
      category: [
        { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'LAB', display: 'Laboratory' }] },
      ],
      code: { coding: [{ system: 'http://loinc.org', code: '57698-3', display: 'Lipid Panel' }], text: 'Lipid Panel' },
      issued: '1986-11-01T19:20:06.629+00:00',
    });
    expect(row[2]).toEqual(['Category', { kind: 'text', text: 'Laboratory' }]);
  });

  it('an untitled care plan is named by its category, and an appointment by its service type', () => {
    const plan = cells({
      resourceType: 'CarePlan',
      status: 'active',
      intent: 'order',
      category: [
        { coding: [{ system: 'http://snomed.info/sct', code: '872781000000100', display: 'Musculoskeletal care' }] },
      ],
      period: { start: '1958-06-22T19:20:06+00:00' },
    });
    expect(plan[0]).toEqual(['Care plan', { kind: 'text', text: 'Musculoskeletal care' }]);
    expect(textOf(plan[3][1])).not.toMatch(/:/);
    const appointment = cells({ resourceType: 'Appointment', serviceType: [{ text: 'Physiotherapy' }] });
    expect(appointment[0]).toEqual(['Appointment', { kind: 'text', text: 'Physiotherapy' }]);
  });

  it('other types read their name, status and date from where their records keep them', () => {
    const condition = cells({
      resourceType: 'Condition',
      clinicalStatus: {
        coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }],
      },
      code: { text: 'Appendicitis' },
      onsetPeriod: { start: '1969-06-07' },
      recordedDate: '1970-01-01',
    });
    expect(condition).toEqual([
      ['Item', { kind: 'text', text: 'Appendicitis' }],
      ['Status', { kind: 'status', status: 'active' }],
      ['Date', { kind: 'date', day: expect.stringMatching(/1969/), dateTime: '1969-06-07' }],
    ]);
    expect(textOf(cells({ resourceType: 'Condition', code: { text: 'X' }, recordedDate: '2001-02-03' })[2][1])).toMatch(
      /2001/,
    );
    const immunization = cells({
      resourceType: 'Immunization',
      status: 'completed',
      vaccineCode: {
        coding: [
          {
            system: 'http://hl7.org/fhir/sid/cvx',
            code: '140',
            display: 'Influenza, seasonal, injectable, preservative free',
          },
        ],
      },
      occurrenceDateTime: '1986-11-01T19:20:06+00:00',
    });
    expect(textOf(immunization[0][1])).toBe('Influenza, seasonal, injectable, preservative free');
    expect(textOf(immunization[2][1])).toMatch(/1986/);
    const procedure = cells({
      resourceType: 'Procedure',
      status: 'completed',
      code: { text: 'Documentation of current medications' },
      performedPeriod: { start: '1986-11-01T19:20:06+00:00', end: '1986-11-01T19:35:06+00:00' },
    });
    expect(textOf(procedure[2][1])).toMatch(/1986/);
    const visit = cells({
      resourceType: 'Encounter',
      status: 'finished',
      class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'AMB' },
      type: [
        {
          coding: [
            { system: 'http://snomed.info/sct', code: '185349003', display: 'Encounter for check up (procedure)' },
          ],
        },
      ],
      period: { start: '1934-01-13T19:20:06+00:00', end: '1934-01-13T19:50:06+00:00' },
    });
    expect(textOf(visit[0][1])).toBe('Encounter for check up (procedure)');
    expect(textOf(visit[2][1])).toMatch(/1934/);
  });
});
