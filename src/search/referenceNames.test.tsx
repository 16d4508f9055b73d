import { render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { Bundle, Claim, Resource } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { SchemaLoader } from '../../schema-engine';
import { recordedSource } from '../../schema-engine/test-support/recordedDefinitions';
import { setSchemaLoader } from '../resources/typeSchema';
import { FhirClientContext } from '../resources/useFhirClient';
import { SearchControl } from './SearchControl';
import { parseConsoleSearch } from './searchState';
import { lookUpReferenceNames } from './referenceNameLookup';
import { NAMED_REFERENCES_PER_PAGE, unnamedReferences } from './unnamedReferences';

const bundle = (resources: Resource[]): Bundle => ({
  resourceType: 'Bundle',
  type: 'searchset',
  total: resources.length,
  entry: resources.map((resource) => ({ resource })),
});

const claim = (id: string, patient: string, provider?: Claim['provider']): Claim =>
  ({
    resourceType: 'Claim',
    id,
    status: 'active',
    use: 'claim',
    type: { coding: [{ code: 'institutional' }] },
    patient: { reference: patient },
    provider: provider ?? { reference: 'Organization/o1', display: 'Hillside Clinic' },
    created: '2020-12-08',
    priority: { coding: [{ code: 'normal' }] },
  }) as Claim;

function renderClaims(
  search: (type: string, query: unknown) => Promise<Bundle>,
  options: { fields?: string; get?: (url: URL) => Promise<unknown> } = {},
) {
  const client = {
    search: vi.fn(search),
    get: vi.fn(options.get ?? (async () => Promise.reject(new Error('no lookups expected')))),
    fhirUrl: (...path: string[]) => new URL(`https://hearth.example/fhir/R4/${path.join('/')}`),
  } as unknown as FhirClient;
  setSchemaLoader(client, new SchemaLoader(recordedSource()));
  render(
    <QueryClientProvider client={new QueryClient()}>
      <FhirClientContext.Provider value={client}>
        <SearchControl
          search={parseConsoleSearch('Claim', new URLSearchParams(`_fields=${options.fields ?? 'patient,provider'}`))}
          onChange={vi.fn()}
          onClick={vi.fn()}
        />
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
  return client.search as ReturnType<typeof vi.fn>;
}

describe('reference names in the console list', { timeout: 30_000 }, () => {
  it("shows the referenced patient's name instead of Patient/{id}, asking once per type", async () => {
    const search = renderClaims(async (type) => {
      if (type === 'Claim')
        return bundle([claim('c1', 'Patient/p1'), claim('c2', 'Patient/p1'), claim('c3', 'Patient/p2')]);
      if (type === 'Patient') {
        return bundle([
          { resourceType: 'Patient', id: 'p1', name: [{ given: ['Abdul'], family: 'Koepp' }] },
          { resourceType: 'Patient', id: 'p2', name: [{ given: ['Ali'], family: 'Harris' }] },
        ]);
      }
      throw new Error(`unexpected ${type}`);
    });
    const table = await screen.findByRole('table');
    expect(await within(table).findAllByText('Abdul Koepp')).toHaveLength(2);
    expect(within(table).getByText('Ali Harris')).toBeInTheDocument();
    expect(within(table).queryByText('Patient/p1')).not.toBeInTheDocument();
    // A display the record carries is kept and not looked up.
    expect(within(table).getAllByText('Hillside Clinic')).toHaveLength(3);
    const patientSearches = search.mock.calls.filter(([type]) => type === 'Patient');
    expect(patientSearches).toHaveLength(1);
    expect(patientSearches[0][1]).toMatchObject({ _id: 'p1,p2', _summary: 'true' });
    expect(search.mock.calls.some(([type]) => type === 'Organization')).toBe(false);
  });

  it('keeps the bare reference when the names cannot be read (a type the caller may not search)', async () => {
    renderClaims(async (type) => {
      if (type === 'Claim') return bundle([claim('c1', 'Patient/p1')]);
      throw new Error('Forbidden');
    });
    const table = await screen.findByRole('table');
    expect(await within(table).findByText('Patient/p1')).toBeInTheDocument();
    expect(within(table).getByText('Hillside Clinic')).toBeInTheDocument();
  });
});

describe('code displays in the console list', { timeout: 30_000 }, () => {
  const claimType = 'http://terminology.hl7.org/CodeSystem/claim-type';
  const typed = (id: string, type: Claim['type']): Claim => ({ ...claim(id, 'Patient/p1'), type });

  it('shows what the code system calls a code without a display, looked up once per code', async () => {
    const lookups: string[] = [];
    renderClaims(
      async () =>
        bundle([
          typed('c1', { coding: [{ system: claimType, code: 'institutional' }] }),
          typed('c2', { coding: [{ system: claimType, code: 'institutional' }] }),
          typed('c3', { coding: [{ system: claimType, code: 'pharmacy', display: 'Pharmacy claim' }] }),
          typed('c4', { text: 'Dental, as typed', coding: [{ system: claimType, code: 'oral' }] }),
          typed('c5', { coding: [{ system: 'http://example.org/unknown', code: 'zz' }] }),
        ]),
      {
        fields: 'type',
        get: async (url) => {
          lookups.push(`${url.searchParams.get('system')}|${url.searchParams.get('code')}`);
          if (url.searchParams.get('code') === 'institutional') {
            return { resourceType: 'Parameters', parameter: [{ name: 'display', valueString: 'Institutional' }] };
          }
          throw new Error('Not found');
        },
      },
    );
    const table = await screen.findByRole('table');
    expect(await within(table).findAllByText('Institutional')).toHaveLength(2);
    // A display or text the record carries wins and is not looked up; an unknown code stays as it is.
    expect(within(table).getByText('Pharmacy claim')).toBeInTheDocument();
    expect(within(table).getByText('Dental, as typed')).toBeInTheDocument();
    expect(within(table).getByText('zz')).toBeInTheDocument();
    expect(lookups.sort()).toEqual(['http://example.org/unknown|zz', `${claimType}|institutional`]);
  });
});

describe('unnamedReferences', () => {
  it('collects distinct local references without a display, in row order', () => {
    const resources = [
      claim('c1', 'Patient/p2'),
      claim('c2', 'Patient/p1', { reference: 'Organization/o9' }),
      claim('c3', 'Patient/p2'),
      claim('c4', '#contained'),
      claim('c5', 'urn:uuid:7f0c'),
      claim('c6', 'https://elsewhere.example/fhir/Patient/9'),
    ];
    expect(unnamedReferences(resources, ['patient', 'provider'])).toEqual([
      'Patient/p2',
      'Patient/p1',
      'Organization/o9',
    ]);
    expect(unnamedReferences(resources, [])).toEqual([]);
  });

  it(`stops at ${NAMED_REFERENCES_PER_PAGE} references a page`, () => {
    const resources = Array.from({ length: NAMED_REFERENCES_PER_PAGE + 50 }, (_, i) => claim(`c${i}`, `Patient/p${i}`));
    expect(unnamedReferences(resources, ['patient'])).toHaveLength(NAMED_REFERENCES_PER_PAGE);
  });
});

describe('lookUpReferenceNames', () => {
  it('searches 50 ids at a time per type, keeps what answered and drops what failed', async () => {
    const references = [
      ...Array.from({ length: 60 }, (_, i) => `Patient/p${i}`),
      'Practitioner/dr1',
      'Organization/o1',
    ];
    const search = vi.fn(async (type: string, query: { _id: string }) => {
      if (type === 'Organization') throw new Error('Forbidden');
      const ids = query._id.split(',');
      return bundle(
        ids.map((id) =>
          type === 'Patient'
            ? { resourceType: 'Patient', id, name: [{ given: [`Given-${id}`], family: 'X' }] }
            : { resourceType: 'Practitioner', id, name: [{ prefix: ['Dr.'], given: ['Rosa'], family: 'Diaz' }] },
        ) as Resource[],
      );
    });
    const names = await lookUpReferenceNames({ search } as unknown as FhirClient, references);
    expect(search.mock.calls.filter(([type]) => type === 'Patient').map(([, q]) => q._id.split(',').length)).toEqual([
      50, 10,
    ]);
    expect(names.get('Patient/p59')).toBe('Given-p59 X');
    expect(names.get('Practitioner/dr1')).toContain('Rosa Diaz');
    expect(names.has('Organization/o1')).toBe(false);
  });

  it('names nothing for a resource the answer holds under another type or without a name', async () => {
    const search = vi.fn(async () =>
      bundle([
        { resourceType: 'Practitioner', id: 'p1', name: [{ given: ['Not'], family: 'Patient' }] },
        { resourceType: 'Patient', id: 'p2' },
      ]),
    );
    const names = await lookUpReferenceNames({ search } as unknown as FhirClient, ['Patient/p1', 'Patient/p2']);
    expect(names.size).toBe(0);
  });
});
