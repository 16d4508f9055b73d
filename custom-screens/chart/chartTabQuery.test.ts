import { describe, expect, it } from 'vitest';
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
});
