import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import type { Claim, Reference } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { SchemaLoader } from '../../schema-engine';
import { recordedSource } from '../../schema-engine/test-support/recordedDefinitions';
import { ResourceDetails } from './ResourceDetails';
import { setSchemaLoader } from './typeSchema';
import { FhirClientContext } from './useFhirClient';

const claim: Claim = {
  resourceType: 'Claim',
  id: 'c1',
  status: 'active',
  use: 'claim',
  type: { coding: [{ code: 'institutional' }] },
  patient: { reference: 'Patient/p1' },
  provider: { reference: 'Organization/o1', display: 'Hillside Clinic' },
  insurer: { reference: 'Organization/o2' },
  created: '2020-12-08',
  priority: { coding: [{ code: 'normal' }] },
  insurance: [{ sequence: 1, focal: true, coverage: { display: 'private' } }],
};

function renderDetails(readReference: (reference: Reference) => Promise<unknown>) {
  const client = { readReference: vi.fn(readReference), getAccessPolicy: () => undefined } as unknown as FhirClient;
  setSchemaLoader(client, new SchemaLoader(recordedSource()));
  render(
    <QueryClientProvider client={new QueryClient()}>
      <FhirClientContext.Provider value={client}>
        <MemoryRouter>
          <ResourceDetails resource={claim} />
        </MemoryRouter>
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
  return client.readReference as ReturnType<typeof vi.fn>;
}

describe('references on the Details tab', { timeout: 30_000 }, () => {
  it("links a reference without a display by the target's name, and reads only those", async () => {
    const read = renderDetails(async (reference) => {
      if (reference.reference === 'Patient/p1') {
        return { resourceType: 'Patient', id: 'p1', name: [{ given: ['Abdul'], family: 'Koepp' }] };
      }
      throw new Error('Not found');
    });
    const patient = await screen.findByRole('link', { name: 'Abdul Koepp' });
    expect(patient).toHaveAttribute('href', '/Patient/p1');
    expect(screen.getByRole('link', { name: 'Hillside Clinic' })).toHaveAttribute('href', '/Organization/o1');
    // The insurer could not be read: it stays the reference itself, still a link.
    expect(screen.getByRole('link', { name: 'Organization/o2' })).toHaveAttribute('href', '/Organization/o2');
    expect(read.mock.calls.map(([reference]) => reference.reference).sort()).toEqual(['Organization/o2', 'Patient/p1']);
  });
});
