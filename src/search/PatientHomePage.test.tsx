import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useParams } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import type { Bundle, Patient } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { SchemaLoader } from '../../schema-engine';
import { recordedSource } from '../../schema-engine/test-support/recordedDefinitions';
import { setSchemaLoader } from '../resources/typeSchema';
import { FhirClientContext } from '../resources/useFhirClient';
import { PatientHomePage } from './PatientHomePage';

const patient = (id: string, family: string): Patient => ({
  resourceType: 'Patient',
  id,
  name: [{ given: ['Ada'], family }],
  birthDate: '1980-03-07',
  gender: 'female',
});

function ChartStub() {
  return <h1>Chart of {useParams().id}</h1>;
}

describe('the home patient list from the keyboard', { timeout: 30_000 }, () => {
  it('Tab goes from the column headers to the first patient, Enter opens the chart', async () => {
    const bundle: Bundle<Patient> = {
      resourceType: 'Bundle',
      type: 'searchset',
      total: 2,
      entry: [{ resource: patient('p1', 'King') }, { resource: patient('p2', 'Byron') }],
    };
    const client = { search: vi.fn(async () => bundle) } as unknown as FhirClient;
    setSchemaLoader(client, new SchemaLoader(recordedSource()));
    render(
      <QueryClientProvider client={new QueryClient()}>
        <FhirClientContext.Provider value={client}>
          <MemoryRouter initialEntries={['/']}>
            <Routes>
              <Route path="/" element={<PatientHomePage />} />
              <Route path="/Patient/:id" element={<ChartStub />} />
            </Routes>
          </MemoryRouter>
        </FhirClientContext.Provider>
      </QueryClientProvider>,
    );
    const user = userEvent.setup({ delay: null });
    await screen.findByText('Ada King');
    const header = screen.getByRole('button', { name: 'Gender' });
    header.focus();
    await user.tab();
    const [, first] = within(screen.getByRole('table')).getAllByRole('row');
    expect(first).toHaveFocus();
    expect(first).toHaveTextContent('Ada King');
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { name: 'Chart of p1' })).toBeInTheDocument();
  });
});
