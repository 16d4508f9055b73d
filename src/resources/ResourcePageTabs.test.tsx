import { render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import type { AccessPolicy, Encounter, Resource } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { SchemaLoader } from '../../schema-engine';
import { recordedSource } from '../../schema-engine/test-support/recordedDefinitions';
import { ResourcePage } from './ResourcePage';
import { setSchemaLoader } from './typeSchema';
import { FhirClientContext } from './useFhirClient';

const loader = new SchemaLoader(recordedSource());
const encounter: Encounter = {
  resourceType: 'Encounter',
  id: 'e1',
  meta: { versionId: '1' },
  status: 'finished',
  class: { code: 'AMB' },
};

function renderPage(viewer: Resource, policy?: AccessPolicy) {
  const client = {
    getProfile: () => viewer,
    getAccessPolicy: () => policy,
    isSuperAdmin: () => false,
    readResource: vi.fn(async () => encounter),
    searchResources: vi.fn(async () => []),
    search: vi.fn(async () => ({ resourceType: 'Bundle', type: 'searchset', entry: [] })),
  } as unknown as FhirClient;
  setSchemaLoader(client, loader);
  render(
    <QueryClientProvider client={new QueryClient()}>
      <FhirClientContext.Provider value={client}>
        <MemoryRouter initialEntries={['/Encounter/e1']}>
          <Routes>
            <Route path="/:resourceType/:id/*" element={<ResourcePage />} />
          </Routes>
        </MemoryRouter>
      </FhirClientContext.Provider>
    </QueryClientProvider>,
  );
}

const tabNames = () =>
  within(screen.getByRole('tablist', { name: 'Encounter tabs' }))
    .getAllByRole('tab')
    .map((tab) => tab.textContent);

describe('ResourcePage tabs', () => {
  it('a patient in the portal gets Details and History, not Edit or JSON (she changes none of her records)', () => {
    renderPage({ resourceType: 'Patient', id: 'p1' });
    expect(tabNames()).toEqual(['Details', 'History']);
  });

  it('a patient whose policy lets her update the type still gets no Edit', () => {
    renderPage(
      { resourceType: 'Patient', id: 'p1' },
      { resourceType: 'AccessPolicy', resource: [{ resourceType: '*' }] },
    );
    expect(tabNames()).toEqual(['Details', 'History']);
  });

  it('staff whose policy only reads the type get no Edit (it could only say "Permission denied") but keep JSON', () => {
    const readOnly: AccessPolicy = {
      resourceType: 'AccessPolicy',
      resource: [{ resourceType: 'Encounter', readonly: true }, { resourceType: 'Patient' }],
    };
    renderPage({ resourceType: 'Practitioner', id: 'd1' }, readOnly);
    expect(tabNames()).toEqual(['Details', 'History', 'JSON']);
  });

  it('the care team gets Details, Edit, History and JSON', () => {
    renderPage({ resourceType: 'Practitioner', id: 'a1' });
    expect(tabNames()).toEqual(['Details', 'Edit', 'History', 'JSON']);
  });
});
