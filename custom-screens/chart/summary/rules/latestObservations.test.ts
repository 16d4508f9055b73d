import { describe, expect, it } from 'vitest';
import type { Observation } from '@medplum/fhirtypes';
import {
  couldNotLoadMessage,
  latestObservationQuery,
  latestObservationsBatch,
  latestObservationsFrom,
  missingObservationItems,
  SUMMARY_OBSERVATION_ITEMS,
} from './latestObservations';

const observation = (id: string, code: string, extra: Partial<Observation> = {}): Observation => ({
  resourceType: 'Observation',
  id,
  status: 'final',
  code: { coding: [{ system: 'http://loinc.org', code }] },
  effectiveDateTime: '2026-11-03',
  valueQuantity: { value: 70, unit: '/min' },
  ...extra,
});

const page = (length: number, code = '8867-4') => Array.from({ length }, (_, index) => observation(`o${index}`, code));

const ids = (items: { id: string }[]) => items.map((item) => item.id);

describe('missingObservationItems', () => {
  it('asks for nothing when the page is not full: it is the whole record', () => {
    expect(missingObservationItems(page(99), 100)).toEqual([]);
    expect(missingObservationItems([], 100)).toEqual([]);
  });

  it('asks for every item a full page does not hold, in the summary’s order', () => {
    expect(ids(missingObservationItems(page(100), 100))).toEqual([
      'social:76690-7',
      'social:72166-2',
      'vital:bloodPressure',
      'vital:temperature',
      'vital:respiratoryRate',
      'vital:height',
      'vital:weight',
      'vital:bmi',
      'vital:oxygen',
      'vital:headCircumference',
    ]);
  });

  it('counts a blood-pressure panel by its parts, a social answer by its code, and not entered-in-error records', () => {
    const full = [
      ...page(97),
      observation('bp', '85354-9', {
        valueQuantity: undefined,
        component: [{ code: { coding: [{ code: '8480-6' }] }, valueQuantity: { value: 120 } }],
      }),
      observation('smoking', '72166-2', { valueQuantity: undefined, valueCodeableConcept: { text: 'Ex-smoker' } }),
      observation('wrong', '76690-7', { status: 'entered-in-error' }),
    ];
    const missing = ids(missingObservationItems(full, 100));
    expect(missing).not.toContain('vital:bloodPressure');
    expect(missing).not.toContain('social:72166-2');
    expect(missing).toContain('social:76690-7');
  });

  it('takes a vital read under another LOINC code (Synthea’s 59408-5 oxygen) as held', () => {
    const missing = ids(missingObservationItems([...page(99), observation('spo2', '59408-5')], 100));
    expect(missing).not.toContain('vital:oxygen');
  });
});

describe('latestObservationQuery', () => {
  it('is the newest Observation of the item’s codes, one, not entered in error', () => {
    const smoking = SUMMARY_OBSERVATION_ITEMS.find((item) => item.id === 'social:72166-2')!;
    expect(latestObservationQuery('p1', smoking)).toEqual({
      subject: 'Patient/p1',
      code: 'http://loinc.org|72166-2',
      'status:not': 'entered-in-error',
      _sort: '-date',
      _count: 1,
    });
    const bp = SUMMARY_OBSERVATION_ITEMS.find((item) => item.id === 'vital:bloodPressure')!;
    expect(latestObservationQuery('p1', bp).code).toBe('http://loinc.org|85354-9,http://loinc.org|55284-4');
    const temperature = SUMMARY_OBSERVATION_ITEMS.find((item) => item.id === 'vital:temperature')!;
    expect(latestObservationQuery('p1', temperature).code).toBe('http://loinc.org|8310-5,http://loinc.org|8331-1');
  });

  it('says what could not be loaded', () => {
    expect(couldNotLoadMessage({ label: 'smoking status' }, 'Server error')).toBe(
      'Could not load the latest smoking status: Server error',
    );
  });
});

describe('the items’ batch', () => {
  const items = SUMMARY_OBSERVATION_ITEMS.filter((item) =>
    ['social:72166-2', 'vital:height', 'vital:weight'].includes(item.id),
  );

  it('asks each item’s search in one batch Bundle, in the items’ order', () => {
    const batch = latestObservationsBatch('p1', items);
    expect(batch.type).toBe('batch');
    expect(batch.entry?.map((entry) => [entry.request?.method, decodeURIComponent(entry.request?.url ?? '')])).toEqual([
      [
        'GET',
        'Observation?subject=Patient/p1&code=http://loinc.org|72166-2&status:not=entered-in-error&_sort=-date&_count=1',
      ],
      [
        'GET',
        'Observation?subject=Patient/p1&code=http://loinc.org|8302-2&status:not=entered-in-error&_sort=-date&_count=1',
      ],
      [
        'GET',
        'Observation?subject=Patient/p1&code=http://loinc.org|29463-7&status:not=entered-in-error&_sort=-date&_count=1',
      ],
    ]);
  });

  it('reads each answer on its own: found, none, or failed with the server’s reason', () => {
    const smoking = observation('s', '72166-2');
    const answers = latestObservationsFrom(
      {
        resourceType: 'Bundle',
        type: 'batch-response',
        entry: [
          {
            response: { status: '200 OK' },
            resource: {
              resourceType: 'Bundle',
              type: 'searchset',
              entry: [{ resource: smoking, search: { mode: 'match' } }],
            },
          },
          { response: { status: '200 OK' }, resource: { resourceType: 'Bundle', type: 'searchset' } },
          {
            response: { status: '400 Bad Request' },
            resource: {
              resourceType: 'OperationOutcome',
              issue: [{ severity: 'error', code: 'invalid', details: { text: 'Unknown search parameter' } }],
            },
          },
        ],
      },
      items,
    );
    expect(answers).toEqual([{ found: [smoking] }, { found: [] }, { failed: 'Unknown search parameter' }]);
    expect(latestObservationsFrom({ resourceType: 'Bundle', type: 'batch-response' }, items.slice(0, 1))).toEqual([
      { failed: 'The server did not answer this search' },
    ]);
  });
});
