import { render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import type { Bundle, DiagnosticReport } from '@medplum/fhirtypes';
import { FhirClient } from '../../data-provider/client';
import { FakeFetch, jsonResponse } from '../../data-provider/client/fakeFetch';
import { FhirClientContext } from '../../src/resources/useFhirClient';
import { ChartTabList } from './ChartTabList';

// A lab report as the Synthea R4 samples write it (synthetic data, Apache-2.0).
const report: DiagnosticReport = {
  resourceType: 'DiagnosticReport',
  id: 'r1',
  status: 'final',
  category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'LAB' }] }],
  code: { coding: [{ system: 'http://loinc.org', code: '57698-3', display: 'Lipid Panel' }], text: 'Lipid Panel' },
  subject: { reference: 'Patient/p1' },
  issued: '1986-11-01T19:20:06.629+00:00',
};

function renderReports() {
  const fake = new FakeFetch();
  fake.on('GET', /\/fhir\/R4\/DiagnosticReport\?/, () =>
    jsonResponse({
      resourceType: 'Bundle',
      type: 'searchset',
      total: 1,
      entry: [{ resource: report, search: { mode: 'match' } }],
    } satisfies Bundle),
  );
  const client = new FhirClient({ baseUrl: 'https://hearth.test/', fetch: fake.fetch, autoBatchTime: 0 });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <FhirClientContext.Provider value={client}>
        <MemoryRouter initialEntries={['/Patient/p1/DiagnosticReport']}>
          <Routes>
            <Route path="/Patient/:patientId/:resourceType" element={<ChartTabList />} />
          </Routes>
        </MemoryRouter>
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
}

describe('ChartTabList dates', { timeout: 30_000 }, () => {
  it('shows a report’s Issued date as one unbroken <time>, whatever the width of its column', async () => {
    renderReports();
    const table = await screen.findByRole('table', { name: 'Reports' });
    const issuedColumn = within(table)
      .getAllByRole('columnheader')
      .findIndex((header) => header.textContent === 'Issued');
    const cell = within(table).getAllByRole('row')[1]!.querySelectorAll('td')[issuedColumn]!;
    const time = cell.querySelector('time');
    expect(time).not.toBeNull();
    expect(time).toHaveAttribute('datetime', report.issued);
    expect(time).toHaveTextContent(/1986, .*:/);
    expect(getComputedStyle(time!).whiteSpace).toBe('nowrap');
    // Where a narrow list lets the time of day go below the day, neither breaks inside.
    const parts = [...time!.querySelectorAll('span')];
    expect(parts.map((part) => part.textContent)).toEqual([
      expect.stringMatching(/1986,$/),
      expect.stringMatching(/:/),
    ]);
    for (const part of parts) expect(getComputedStyle(part).whiteSpace).toBe('nowrap');
  });
});
