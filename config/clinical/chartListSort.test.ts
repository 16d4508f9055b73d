import { describe, expect, it } from 'vitest';
import { chartListSort } from './chartListSort';

describe('chart list sort (newest first, app-spec §2.3)', () => {
  it('sorts imported kinds of record by the date they are about, then by the last write', () => {
    expect(chartListSort('MedicationRequest')).toBe('-authoredon,-_lastUpdated');
    expect(chartListSort('DiagnosticReport')).toBe('-issued,-_lastUpdated');
    expect(chartListSort('Encounter')).toBe('-date,-_lastUpdated');
    expect(chartListSort('Condition')).toBe('-onset-date,-recorded-date,-_lastUpdated');
  });

  it("keeps the clinic's own work (tasks, appointments, devices) by the last write", () => {
    for (const type of ['Task', 'Appointment', 'Device', 'Communication'])
      expect(chartListSort(type)).toBe('-_lastUpdated');
  });
});
