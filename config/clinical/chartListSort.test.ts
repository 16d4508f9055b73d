import { describe, expect, it } from 'vitest';
import { chartListSort } from './chartListSort';

describe('chart list sort (newest first, app-spec §2.3)', () => {
  it('sorts imported kinds of record by the date they are about, then by the last write', () => {
    expect(chartListSort('MedicationRequest')).toBe('-authoredon,-_lastUpdated');
    expect(chartListSort('DiagnosticReport')).toBe('-issued,-date,-_lastUpdated');
    expect(chartListSort('Encounter')).toBe('-date,-_lastUpdated');
    expect(chartListSort('Condition')).toBe('-onset-date,-recorded-date,-_lastUpdated');
  });

  it("sorts the clinic's own work by its clinical date too: a status change does not reorder it", () => {
    expect(chartListSort('Task')).toBe('-authored-on,-_lastUpdated');
    expect(chartListSort('Appointment')).toBe('-date,-_lastUpdated');
    expect(chartListSort('Communication')).toBe('-sent,-_lastUpdated');
  });

  it('keeps the last write for a type without a date to sort by', () => {
    expect(chartListSort('Device')).toBe('-_lastUpdated');
  });
});
