import { render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ThemeProvider, createTheme } from '@mui/material/styles';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { Bundle, Observation } from '@medplum/fhirtypes';
import { FhirClient } from '../../data-provider/client';
import { FakeFetch, jsonResponse } from '../../data-provider/client/fakeFetch';
import { FhirClientContext } from '../../src/resources/useFhirClient';
import { ChartTabList } from './ChartTabList';

const loinc = (code: string, display: string) => ({
  coding: [{ system: 'http://loinc.org', code, display }],
  text: display,
});
const mmHg = (value: number) => ({ value, unit: 'mm[Hg]', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' });

// As Wendy's chart holds them: a blood pressure above range, a flagged lab result, a normal one, a coded one.
const observations: Observation[] = [
  {
    resourceType: 'Observation',
    id: 'bp',
    status: 'final',
    code: loinc('85354-9', 'Blood pressure panel'),
    effectiveDateTime: '2026-10-02T09:30:00Z',
    component: [
      { code: loinc('8480-6', 'Systolic blood pressure'), valueQuantity: mmHg(128) },
      { code: loinc('8462-4', 'Diastolic blood pressure'), valueQuantity: mmHg(82) },
    ],
  },
  {
    resourceType: 'Observation',
    id: 'ldl',
    status: 'final',
    code: loinc('18262-6', 'LDL Cholesterol'),
    effectiveDateTime: '2026-09-14T08:00:00Z',
    valueQuantity: { value: 162, unit: 'mg/dL' },
    interpretation: [{ coding: [{ code: 'H', display: 'High' }] }],
  },
  {
    resourceType: 'Observation',
    id: 'glucose',
    status: 'final',
    code: loinc('2339-0', 'Glucose'),
    effectiveDateTime: '2026-09-14T08:00:00Z',
    valueQuantity: { value: 92, unit: 'mg/dL' },
    interpretation: [{ coding: [{ code: 'N', display: 'Normal' }] }],
  },
  {
    resourceType: 'Observation',
    id: 'smoking',
    status: 'final',
    code: loinc('72166-2', 'Tobacco smoking status'),
    effectiveDateTime: '2026-08-01',
    valueCodeableConcept: { text: 'Never smoker' },
  },
];

function renderObservations(mode: 'light' | 'dark' = 'light') {
  const fake = new FakeFetch();
  fake.on('GET', /\/fhir\/R4\/Observation\?/, () =>
    jsonResponse({
      resourceType: 'Bundle',
      type: 'searchset',
      total: observations.length,
      entry: observations.map((resource) => ({ resource, search: { mode: 'match' } })),
    } satisfies Bundle),
  );
  const client = new FhirClient({ baseUrl: 'https://hearth.test/', fetch: fake.fetch, autoBatchTime: 0 });
  render(
    <ThemeProvider theme={createTheme({ palette: { mode } })}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <FhirClientContext.Provider value={client}>
          <MemoryRouter initialEntries={['/Patient/p1/Observation']}>
            <Routes>
              <Route path="/Patient/:patientId/:resourceType" element={<ChartTabList />} />
            </Routes>
          </MemoryRouter>
        </FhirClientContext.Provider>
      </QueryClientProvider>
    </ThemeProvider>,
  );
}

/** The cells of each row under the column headers' names. */
async function rows() {
  const table = await screen.findByRole('table', { name: 'Observation' });
  const headers = within(table)
    .getAllByRole('columnheader')
    .map((header) => header.textContent ?? '');
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => Object.fromEntries([...row.querySelectorAll('td')].map((cell, index) => [headers[index], cell])));
}

describe('the chart’s Observation list', { timeout: 30_000 }, () => {
  it('shows each value beside its name: a blood pressure as systolic/diastolic, a quantity with its unit, a coded value', async () => {
    renderObservations();
    const [bp, ldl, glucose, smoking] = await rows();
    expect(bp!.Item).toHaveTextContent('Blood pressure panel');
    expect(bp!.Value).toHaveTextContent(/^128\/82 mmHg↑ High$/);
    expect(ldl!.Value).toHaveTextContent(/^162 mg\/dL↑ High$/);
    expect(glucose!.Value).toHaveTextContent(/^92 mg\/dL$/);
    expect(smoking!.Value).toHaveTextContent(/^Never smoker$/);
    // The date as people read it, with the time it was measured.
    expect(bp!.Date!.querySelector('time')).toHaveAttribute('datetime', '2026-10-02T09:30:00Z');
    expect(bp!.Date).toHaveTextContent(/2026, .*:/);
    expect(smoking!.Date).toHaveTextContent(/2026$/);
  });

  it('marks a flagged value by colour and word (the word alone is read out), a normal one by neither', async () => {
    renderObservations();
    const [, ldl, glucose] = await rows();
    const flagged = ldl!.Value!.querySelector('[data-flag]') as HTMLElement;
    expect(flagged).toHaveAttribute('data-flag', 'high');
    const value = within(ldl!.Value!).getByText('162 mg/dL');
    // The number and its unit never part at a narrow column's edge.
    expect(value.textContent).toBe('162\u00a0mg/dL');
    expect(getComputedStyle(value).color).toBe('#8a4b00');
    expect(getComputedStyle(value).fontWeight).toBe('700');
    const word = ldl!.Value!.querySelector('[data-flag-word]') as HTMLElement;
    expect(word).toHaveTextContent('High');
    expect(word.querySelector('[aria-hidden="true"]')).toHaveTextContent('↑');
    expect(glucose!.Value!.querySelector('[data-flag]')).toBeNull();
    expect(glucose!.Value!.querySelector('[data-flag-word]')).toBeNull();
  });

  it('keeps the flag readable in the dark scheme', async () => {
    renderObservations('dark');
    const [, ldl] = await rows();
    expect(getComputedStyle(within(ldl!.Value!).getByText('162 mg/dL')).color).toBe('#ffcc80');
  });
});
