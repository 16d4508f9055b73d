import { describe, expect, it } from 'vitest';
import type { Resource } from '@medplum/fhirtypes';
import { chartColumns } from './tabColumns';

const cells = (resource: Record<string, unknown>) =>
  chartColumns(resource.resourceType as string).map((column) => [
    column.label,
    column.cell(resource as unknown as Resource),
  ]);

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
      ['Ordered', { kind: 'text', text: expect.stringMatching(/2025/) }],
    ]);
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
    expect((row[4][1] as { text: string }).text).toMatch(/2030/);
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
    expect((open[5][1] as { text: string }).text).toMatch(/2026/);
    expect((open[5][1] as { text: string }).text).not.toMatch(/:/);

    const done = cells({ ...task, status: 'completed' });
    expect(done[4][1]).toMatchObject({ kind: 'text' });
    expect((done[4][1] as { text: string }).text).toMatch(/2026/);
    expect(cells({ ...task, status: 'cancelled' })[4][1]).toMatchObject({ kind: 'text' });
    expect(cells({ ...task, restriction: undefined })[4]).toEqual(['Due', { kind: 'text', text: '' }]);
  });
});
