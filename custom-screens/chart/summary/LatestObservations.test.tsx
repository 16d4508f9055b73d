import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Observation } from '@medplum/fhirtypes';
import { renderSummary, summaryServer, type SummaryServer } from './summaryTestSupport';

/**
 * A patient with more Observations than the summary's page of 100 (app-spec §7): what the page
 * does not hold is asked for on its own, and "Not recorded" is said only when the server says so.
 */

const heartRate = (index: number): Observation => ({
  resourceType: 'Observation',
  id: `hr-${index}`,
  status: 'preliminary',
  code: { coding: [{ system: 'http://loinc.org', code: '8867-4' }] },
  subject: { reference: 'Patient/p1' },
  effectiveDateTime: `2026-11-03T11:${String(index % 60).padStart(2, '0')}:00Z`,
  valueQuantity: { value: 60 + (index % 30), unit: '/min' },
});

const exSmoker: Observation = {
  resourceType: 'Observation',
  id: 'smoking-2020',
  status: 'final',
  code: { coding: [{ system: 'http://loinc.org', code: '72166-2', display: 'Tobacco smoking status NHIS' }] },
  subject: { reference: 'Patient/p1' },
  effectiveDateTime: '2020-01-15T22:06:51+00:00',
  valueCodeableConcept: {
    coding: [{ system: 'http://snomed.info/sct', code: '8517006', display: 'Former smoker' }],
  },
};

const weight2019: Observation = {
  resourceType: 'Observation',
  id: 'weight-2019',
  status: 'final',
  code: { coding: [{ system: 'http://loinc.org', code: '29463-7' }] },
  subject: { reference: 'Patient/p1' },
  effectiveDateTime: '2019-06-01',
  valueQuantity: { value: 71.5, unit: 'kg' },
};

const SMOKING_QUERY = /^Observation\?.*code=http:\/\/loinc\.org\|72166-2(&|$)/;
const WEIGHT_QUERY = /^Observation\?.*code=http:\/\/loinc\.org\|29463-7(&|$)/;
/** Every other item's own query: the server has none of them. */
const ANY_ITEM_QUERY = /^Observation\?.*&code=/;

/** A full page of 100 recent heart rates: the page the chart reads holds nothing else. */
function fullPage(server: SummaryServer) {
  server.store.set(
    'Observation',
    Array.from({ length: 100 }, (_, index) => heartRate(index)),
  );
}

function section(name: string) {
  return screen.getByRole('region', { name });
}

function itemQueries(server: SummaryServer): string[] {
  const urls = [
    ...server.fake.calls.filter((call) => call.method === 'GET').map((call) => call.url),
    ...server.fake
      .callsTo('POST', /\/fhir\/R4\/?$/)
      .flatMap((call) =>
        ((JSON.parse(call.body as string) as { entry?: { request?: { url?: string } }[] }).entry ?? []).map(
          (entry) => entry.request?.url ?? '',
        ),
      ),
  ];
  return urls
    .map((url) => decodeURIComponent(url.replace(/^.*\/fhir\/R4\//, '')))
    .filter((url) => url.startsWith('Observation?') && url.includes('&code='));
}

describe('Summary items the page of 100 Observations does not hold', { timeout: 30_000 }, () => {
  it('asks for the smoking status on its own, shows "Loading..." meanwhile, then "Ex-smoker"', async () => {
    const server = summaryServer();
    fullPage(server);
    let answer!: (found: Observation[]) => void;
    server.answerSearches(SMOKING_QUERY, new Promise<Observation[]>((resolve) => (answer = resolve)));
    server.answerSearches(ANY_ITEM_QUERY, []);
    renderSummary(server);

    // The page has come (its heart rates show) and the smoking status is still asked for.
    await screen.findByRole('button', { name: /^Heart rate .*\/min/ });
    await waitFor(() => expect(itemQueries(server).some((url) => SMOKING_QUERY.test(url))).toBe(true));
    expect(within(section('Smoking Status')).getByText('Loading...')).toBeInTheDocument();
    expect(within(section('Smoking Status')).queryByText('Not recorded')).not.toBeInTheDocument();

    answer([exSmoker]);
    expect(await within(section('Smoking Status')).findByText('Ex-smoker')).toBeInTheDocument();
    expect(section('Smoking Status')).toHaveTextContent('Ex-smoker · 15 Jan 2020');
    expect(section('Smoking Status')).not.toHaveTextContent('Not recorded');

    // The query is the one the brief and docs name: newest by date, one, entered-in-error left out.
    const query = itemQueries(server).find((url) => SMOKING_QUERY.test(url));
    expect(query).toBe(
      'Observation?subject=Patient/p1&code=http://loinc.org|72166-2&status:not=entered-in-error&_sort=-date&_count=1',
    );
    // The spec's page stays as it was.
    expect(
      server.fake.calls.some((call) =>
        decodeURIComponent(call.url + String(call.body ?? '')).includes(
          'Observation?subject=Patient/p1&_count=100&_sort=-_lastUpdated',
        ),
      ),
    ).toBe(true);
  });

  it('says "Not recorded" only once the direct query found none', async () => {
    const server = summaryServer();
    fullPage(server);
    server.answerSearches(ANY_ITEM_QUERY, []);
    renderSummary(server);
    expect(await within(section('Smoking Status')).findByText('Not recorded')).toBeInTheDocument();
    expect(itemQueries(server).some((url) => SMOKING_QUERY.test(url))).toBe(true);
    expect(within(section('Sexual Orientation')).getByText('Not recorded')).toBeInTheDocument();
    // Every missing item in one batch request: one more round trip, however many are missing.
    const lookups = server.fake
      .callsTo('POST', /\/fhir\/R4\/?$/)
      .filter((call) => decodeURIComponent(String(call.body)).includes('&code='));
    expect(lookups).toHaveLength(1);
    expect(
      server.fake.calls.filter((call) => call.method === 'GET' && decodeURIComponent(call.url).includes('&code=')),
    ).toEqual([]);
  });

  it('says it could not load the smoking status when its query fails, never "Not recorded"', async () => {
    const server = summaryServer();
    fullPage(server);
    server.answerSearches(SMOKING_QUERY, 'fail');
    server.answerSearches(ANY_ITEM_QUERY, []);
    renderSummary(server);
    const alert = await within(section('Smoking Status')).findByRole('alert');
    expect(alert).toHaveTextContent('Could not load the latest smoking status');
    expect(section('Smoking Status')).not.toHaveTextContent('Not recorded');
    // Recording one is still possible.
    expect(within(section('Smoking Status')).getByRole('button', { name: 'Edit smoking status' })).toBeEnabled();
  });

  it('shows a vital not measured recently from its own query, and "Could not load" for one that failed', async () => {
    const server = summaryServer();
    fullPage(server);
    server.answerSearches(WEIGHT_QUERY, [weight2019]);
    server.answerSearches(/^Observation\?.*code=http:\/\/loinc\.org\|8302-2(&|$)/, 'fail');
    server.answerSearches(ANY_ITEM_QUERY, []);
    renderSummary(server);
    const weight = await screen.findByRole('button', { name: /^Weight 1 Jun 2019 71\.5 kg/ });
    expect(weight).toBeInTheDocument();
    const height = await screen.findByRole('button', { name: /^Height Could not load/ });
    expect(height).toHaveTextContent('Could not load the latest height');
    // Temperature: the server has none, so '—', as for any vital never measured.
    expect(screen.getByRole('button', { name: /^Temperature — / })).toBeInTheDocument();
    // Heart rate is in the page: it is not asked for again.
    expect(itemQueries(server).some((url) => url.includes('|8867-4'))).toBe(false);
  });

  it('asks nothing more when the page holds fewer than 100: it is the whole record', async () => {
    const server = summaryServer();
    server.store.set('Observation', [heartRate(1), heartRate(2)]);
    renderSummary(server);
    expect(await within(section('Smoking Status')).findByText('Not recorded')).toBeInTheDocument();
    await screen.findByRole('button', { name: /^Heart rate .*\/min/ });
    expect(itemQueries(server)).toEqual([]);
  });

  it('reads the page again after a save and keeps the answer found on its own', async () => {
    const user = userEvent.setup();
    const server = summaryServer();
    fullPage(server);
    server.answerSearches(SMOKING_QUERY, [exSmoker]);
    server.answerSearches(ANY_ITEM_QUERY, []);
    renderSummary(server);
    await within(section('Smoking Status')).findByText('Ex-smoker');
    // Two more vitals entries push further records off the page; the smoking status stays shown.
    await user.click(screen.getByRole('button', { name: 'Record vitals' }));
    const dialog = screen.getByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: /Heart rate/ }), '72');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Vitals saved (1)');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(section('Smoking Status')).getByText('Ex-smoker')).toBeInTheDocument();
    expect(section('Smoking Status')).not.toHaveTextContent('Not recorded');
  });
});
