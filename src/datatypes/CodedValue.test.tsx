import { render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import type { Bundle, Claim, Encounter, Parameters, Resource } from '@medplum/fhirtypes';
import { FhirClient } from '../../data-provider/client';
import { FakeFetch, jsonResponse } from '../../data-provider/client/fakeFetch';
import { SchemaLoader } from '../../schema-engine';
import { recordedSource } from '../../schema-engine/test-support/recordedDefinitions';
import { ResourceDetails } from '../resources/ResourceDetails';
import { setSchemaLoader } from '../resources/typeSchema';
import { FhirClientContext } from '../resources/useFhirClient';
import { SearchControl } from '../search/SearchControl';
import { parseConsoleSearch } from '../search/searchState';

const claimType = 'http://terminology.hl7.org/CodeSystem/claim-type';
const priority = 'http://terminology.hl7.org/CodeSystem/processpriority';
const actCode = 'http://terminology.hl7.org/CodeSystem/v3-ActCode';

/** What the fake server's code systems call their codes; any other code is unknown. */
const DISPLAYS: Record<string, string> = {
  [`${claimType}|institutional`]: 'Institutional',
  [`${priority}|normal`]: 'Normal',
  [`${actCode}|AMB`]: 'ambulatory',
};

const lookupAnswer = (display: string): Parameters => ({
  resourceType: 'Parameters',
  parameter: [
    { name: 'name', valueString: 'code system' },
    { name: 'display', valueString: display },
  ],
});

/** An imported Claim: codes without displays, as Synthea writes them. */
const claim = (overrides: Partial<Claim> = {}): Claim => ({
  resourceType: 'Claim',
  id: 'c1',
  status: 'active',
  use: 'claim',
  type: { coding: [{ system: claimType, code: 'institutional' }] },
  patient: { reference: 'Patient/p1', display: 'Abdul Koepp' },
  provider: { reference: 'Organization/o1', display: 'Hillside Clinic' },
  created: '2020-12-08',
  priority: { coding: [{ system: priority, code: 'normal' }] },
  insurance: [{ sequence: 1, focal: true, coverage: { display: 'private' } }],
  ...overrides,
});

const bundle = (resources: Resource[]): Bundle => ({
  resourceType: 'Bundle',
  type: 'searchset',
  total: resources.length,
  entry: resources.map((resource) => ({ resource })),
});

/**
 * A client that answers `CodeSystem/$lookup` from DISPLAYS (an unknown code fails, as the server's
 * 404 does) and records each lookup as `system|code`.
 */
function fakeClient(search: Resource[] = []) {
  const lookups: string[] = [];
  const client = {
    fhirUrl: (...path: string[]) => new URL(`https://hearth.example/fhir/R4/${path.join('/')}`),
    get: vi.fn(async (url: URL) => {
      const key = `${url.searchParams.get('system')}|${url.searchParams.get('code')}`;
      lookups.push(key);
      const display = DISPLAYS[key];
      if (!display) throw new Error(`Unknown code ${key}`);
      return lookupAnswer(display);
    }),
    search: vi.fn(async () => bundle(search)),
    readReference: vi.fn(async () => Promise.reject(new Error('no reads expected'))),
    getAccessPolicy: () => undefined,
  } as unknown as FhirClient;
  setSchemaLoader(client, new SchemaLoader(recordedSource()));
  return { client, lookups };
}

function Providers(props: { client: FhirClient; queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={props.queryClient}>
      <FhirClientContext.Provider value={props.client}>
        <MemoryRouter>{props.children}</MemoryRouter>
      </FhirClientContext.Provider>
    </QueryClientProvider>
  );
}

function renderDetails(resource: Resource, client: FhirClient) {
  render(
    <Providers client={client} queryClient={new QueryClient()}>
      <ResourceDetails resource={resource} />
    </Providers>,
  );
}

/** The Details tab's value cell of the element labelled `label`. */
async function detailsValue(label: string): Promise<HTMLElement> {
  const term = await screen.findByText(label, { selector: 'dt' });
  return term.nextElementSibling as HTMLElement;
}

describe('codes on the Details tab', { timeout: 30_000 }, () => {
  it('names a coding without a display by its code system and keeps the stored code in the title', async () => {
    const { client, lookups } = fakeClient();
    renderDetails(claim(), client);
    const type = await detailsValue('Type');
    const named = await within(type).findByText('Institutional');
    expect(named).toHaveAttribute('title', `${claimType}|institutional`);
    expect(within(await detailsValue('Priority')).getByText('Normal')).toHaveAttribute('title', `${priority}|normal`);
    expect(lookups.sort()).toEqual([`${claimType}|institutional`, `${priority}|normal`]);
  });

  it('names a Coding element (Encounter.class) the same way', async () => {
    const { client } = fakeClient();
    const encounter: Encounter = {
      resourceType: 'Encounter',
      id: 'e1',
      status: 'finished',
      class: { system: actCode, code: 'AMB' },
    };
    renderDetails(encounter, client);
    const value = await within(await detailsValue('Class')).findByText('ambulatory');
    expect(value).toHaveAttribute('title', `${actCode}|AMB`);
  });

  it('keeps a display or text the record carries and looks up only the codes nothing names', async () => {
    const { client, lookups } = fakeClient();
    renderDetails(
      claim({
        type: { coding: [{ system: claimType, code: 'institutional', display: 'Hospital claim' }] },
        subType: { text: 'Emergency, as typed', coding: [{ system: claimType, code: 'institutional' }] },
      }),
      client,
    );
    // The priority carries no display: it is named, which shows the lookups have answered.
    expect(await within(await detailsValue('Priority')).findByText('Normal')).toBeInTheDocument();
    const type = within(await detailsValue('Type')).getByText('Hospital claim');
    expect(type).not.toHaveAttribute('title');
    expect(within(await detailsValue('Sub Type')).getByText('Emergency, as typed')).toBeInTheDocument();
    expect(screen.queryByText('Institutional')).not.toBeInTheDocument();
    expect(lookups).toEqual([`${priority}|normal`]);
  });

  it('shows the code as it is when the lookup fails or the code system is unknown', async () => {
    const { client, lookups } = fakeClient();
    renderDetails(
      claim({ type: { coding: [{ system: 'http://example.org/unknown-claim-types', code: 'institutional' }] } }),
      client,
    );
    expect(await within(await detailsValue('Priority')).findByText('Normal')).toBeInTheDocument();
    await waitFor(() => expect(lookups).toHaveLength(2));
    const type = within(await detailsValue('Type')).getByText('institutional');
    expect(type).not.toHaveAttribute('title');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('does not ask again for a code the console list already looked up', async () => {
    // A page of two claims: the list asks for both codes at once, the Details tab for one.
    const { client, lookups } = fakeClient([
      claim({ priority: undefined } as Partial<Claim>),
      claim({ id: 'c2', type: { coding: [{ system: claimType, code: 'professional' }] } }),
    ]);
    const queryClient = new QueryClient();
    const { rerender } = render(
      <Providers client={client} queryClient={queryClient}>
        <SearchControl
          search={parseConsoleSearch('Claim', new URLSearchParams('_fields=type'))}
          onChange={vi.fn()}
          onClick={vi.fn()}
        />
      </Providers>,
    );
    expect(await within(await screen.findByRole('table')).findByText('Institutional')).toBeInTheDocument();
    await waitFor(() => expect(lookups.sort()).toEqual([`${claimType}|institutional`, `${claimType}|professional`]));

    // Opening the claim: the Details tab mounts in the same session (the same query cache).
    rerender(
      <Providers client={client} queryClient={queryClient}>
        <ResourceDetails resource={claim()} />
      </Providers>,
    );
    expect(await within(await detailsValue('Type')).findByText('Institutional')).toBeInTheDocument();
    expect(await within(await detailsValue('Priority')).findByText('Normal')).toBeInTheDocument();
    expect(lookups.sort()).toEqual([`${claimType}|institutional`, `${claimType}|professional`, `${priority}|normal`]);
  });
});

describe('code lookups of the Details tab through the real client', { timeout: 30_000 }, () => {
  it('go out as one batch of CodeSystem/$lookup GETs', async () => {
    const fake = new FakeFetch();
    fake.on('POST', /\/fhir\/R4\/?$/, (call) => {
      const request = JSON.parse(String(call.body)) as Bundle;
      return jsonResponse({
        resourceType: 'Bundle',
        type: 'batch-response',
        entry: (request.entry ?? []).map(({ request: get }) => {
          const query = new URLSearchParams((get?.url ?? '').split('?')[1]);
          const display = DISPLAYS[`${query.get('system')}|${query.get('code')}`];
          return display
            ? { response: { status: '200 OK' }, resource: lookupAnswer(display) }
            : { response: { status: '404 Not Found' } };
        }),
      });
    });
    const client = new FhirClient({ baseUrl: 'https://hearth.test/', fetch: fake.fetch });
    setSchemaLoader(client, new SchemaLoader(recordedSource()));
    renderDetails(claim(), client);
    expect(await within(await detailsValue('Type')).findByText('Institutional')).toBeInTheDocument();
    expect(within(await detailsValue('Priority')).getByText('Normal')).toBeInTheDocument();
    expect(fake.calls.map((call) => call.method)).toEqual(['POST']);
    const sent = JSON.parse(String(fake.calls[0].body)) as Bundle;
    expect(sent.entry?.map((entry) => entry.request?.url).sort()).toEqual([
      `CodeSystem/$lookup?system=${encodeURIComponent(claimType)}&code=institutional`,
      `CodeSystem/$lookup?system=${encodeURIComponent(priority)}&code=normal`,
    ]);
  });
});
