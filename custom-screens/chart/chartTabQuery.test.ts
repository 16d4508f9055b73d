import { describe, expect, it } from 'vitest';
import { CHART_TABS } from '../../config/clinical/chartTabs';
import { chartTabQuery } from './chartTabQuery';

describe('chart tab query', () => {
  it('asks for the page newest first by the clinical date, with what the rows point at', () => {
    expect(
      chartTabQuery('MedicationRequest', 'p1', undefined, 20, [
        'MedicationRequest:medication',
        'MedicationRequest:requester',
      ]),
    ).toEqual({
      patient: 'Patient/p1',
      _sort: '-authoredon,-_lastUpdated',
      _count: '20',
      _offset: '20',
      _total: 'accurate',
      _include: ['MedicationRequest:medication', 'MedicationRequest:requester'],
    });
    expect(chartTabQuery('Task', 'p1', undefined, 0)).not.toHaveProperty('_include');
  });

  it('sorts every list tab by its clinical date, newest first, the last write breaking ties', () => {
    const sorts = Object.fromEntries(
      CHART_TABS.filter((tab) => tab.resourceType).map((tab) => [
        tab.label,
        chartTabQuery(tab.resourceType!, 'p1', tab.filters, 0)._sort,
      ]),
    );
    expect(sorts).toEqual({
      // Wendy's tasks read Nov 19, 18, 21 under "Created" when the last write sorted them.
      Tasks: '-authored-on,-_lastUpdated',
      Meds: '-authoredon,-_lastUpdated',
      Labs: '-authored,-_lastUpdated',
      // No date of its own to sort by.
      Devices: '-_lastUpdated',
      Reports: '-issued,-date,-_lastUpdated',
      Documents: '-date,-_lastUpdated',
      // By start: the upcoming ones first (latest first), then the past ones, most recent first.
      Appointments: '-date,-_lastUpdated',
      'Care Plans': '-date,-_lastUpdated',
    });
    // The visits the summary's "documented visits" leads to, by when they took place.
    expect(chartTabQuery('Encounter', 'p1', undefined, 0)._sort).toBe('-date,-_lastUpdated');
  });
});
