import { describe, expect, it } from 'vitest';
import { CHART_TABS, chartTabOf, chartTabsFor } from './chartTabs';

describe('chart tabs (app-spec §2.2)', () => {
  it('are the spec tabs in order, e-prescribing last and flagged', () => {
    expect(CHART_TABS.map((tab) => tab.label)).toEqual([
      'Timeline',
      'Edit',
      'Encounter',
      'Tasks',
      'Meds',
      'Labs',
      'Devices',
      'Reports',
      'Documents',
      'Appointments',
      'Care Plans',
      'Communications',
      'DoseSpot',
    ]);
    expect(CHART_TABS.filter((tab) => tab.ePrescribing).map((tab) => tab.path)).toEqual(['dosespot']);
  });

  it('Labs lists lab procedure service requests only', () => {
    expect(chartTabOf('ServiceRequest')?.filters).toEqual({ category: '108252007' });
  });

  it('a path segment picks its tab case-insensitively; none is the timeline; unknown is none', () => {
    expect(chartTabOf('task')?.label).toBe('Tasks');
    expect(chartTabOf('Communication')?.label).toBe('Communications');
    expect(chartTabOf(undefined)?.label).toBe('Timeline');
    expect(chartTabOf('Observation')).toBeUndefined();
  });

  it('keeps the visit note at `encounter` and leaves `Encounter` (the visits the summary links to) to a list', () => {
    expect(chartTabOf('encounter')?.label).toBe('Encounter');
    expect(chartTabOf('Encounter')).toBeUndefined();
  });

  it('brings along what the rows of imported records point at', () => {
    expect(chartTabOf('MedicationRequest')?.includes).toEqual([
      'MedicationRequest:medication',
      'MedicationRequest:requester',
    ]);
    expect(chartTabOf('DocumentReference')?.includes).toEqual(['DocumentReference:author']);
  });

  it('a patient reading their own record gets the record without the care team tabs', () => {
    const labels = (viewer: { ePrescribing: boolean; patientView: boolean }) =>
      chartTabsFor(viewer).map((tab) => tab.label);
    expect(labels({ ePrescribing: false, patientView: false })).toEqual(
      CHART_TABS.filter((tab) => !tab.ePrescribing).map((tab) => tab.label),
    );
    expect(labels({ ePrescribing: true, patientView: false })).toContain('DoseSpot');
    expect(labels({ ePrescribing: true, patientView: true })).toEqual([
      'Timeline',
      'Meds',
      'Labs',
      'Devices',
      'Reports',
      'Documents',
      'Appointments',
      'Care Plans',
    ]);
  });
});
