import { render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { Patient, SearchParameter } from '@medplum/fhirtypes';
import { FhirClient } from '../../data-provider/client';
import { FakeFetch, jsonResponse } from '../../data-provider/client/fakeFetch';
import { SchemaLoader } from '../../schema-engine';
import { recordedSource } from '../../schema-engine/test-support/recordedDefinitions';
import { useSearchParameters, useTypeSchema } from './schemaHooks';
import { definitionsGeneration, setSchemaLoader } from './typeSchema';
import { FhirClientContext } from './useFhirClient';

const base = 'https://hearth.test/';

function PatientSchemaProbe() {
  const schema = useTypeSchema('Patient');
  const parameters = useSearchParameters('Patient');
  return (
    <p>
      {schema.data ? `elements ${schema.data.elements.size}` : 'loading'} /{' '}
      {parameters.data ? `parameters ${parameters.data.length}` : 'loading'}
    </p>
  );
}

function setup() {
  const fake = new FakeFetch();
  fake.on('POST', /Patient$/, () => jsonResponse({ resourceType: 'Patient', id: 'p1' }));
  fake.on('POST', /SearchParameter$/, () => jsonResponse({ resourceType: 'SearchParameter', id: 'sp1' }));
  fake.on('PUT', /SearchParameter\/bad$/, () =>
    jsonResponse({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'invalid' }] }, 400),
  );
  const client = new FhirClient({ baseUrl: base, fetch: fake.fetch, autoBatchTime: 0 });
  const loader = new SchemaLoader(recordedSource());
  setSchemaLoader(client, loader);
  const loadType = vi.spyOn(loader, 'loadType');
  const loadSearchParameters = vi.spyOn(loader, 'loadSearchParameters');
  const clear = vi.spyOn(loader, 'clear');
  render(
    <QueryClientProvider client={new QueryClient()}>
      <FhirClientContext.Provider value={client}>
        <PatientSchemaProbe />
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
  return { client, loadType, loadSearchParameters, clear };
}

describe('schema hooks after a definition write', { timeout: 30_000 }, () => {
  it('a saved SearchParameter clears the loaded definitions and the screens load them anew', async () => {
    const { client, loadType, loadSearchParameters, clear } = setup();
    await screen.findByText(/elements \d+ \/ parameters \d+/);
    expect(loadType).toHaveBeenCalledTimes(1);
    expect(loadSearchParameters).toHaveBeenCalledTimes(1);
    const before = definitionsGeneration(client);

    await client.createResource({ resourceType: 'SearchParameter' } as SearchParameter);
    expect(clear).toHaveBeenCalledTimes(1);
    expect(definitionsGeneration(client)).toBe(before + 1);
    await waitFor(() => expect(loadSearchParameters).toHaveBeenCalledTimes(2));
    expect(loadType).toHaveBeenCalledTimes(2);
    await screen.findByText(/elements \d+ \/ parameters \d+/);
  });

  it('other writes and failed definition writes keep the cache', async () => {
    const { client, loadType, clear } = setup();
    await screen.findByText(/elements \d+/);
    const before = definitionsGeneration(client);
    await client.createResource({ resourceType: 'Patient' } as Patient);
    await expect(
      client.updateResource({ resourceType: 'SearchParameter', id: 'bad' } as SearchParameter),
    ).rejects.toThrow();
    expect(clear).not.toHaveBeenCalled();
    expect(definitionsGeneration(client)).toBe(before);
    expect(loadType).toHaveBeenCalledTimes(1);
  });
});
