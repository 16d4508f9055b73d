/**
 * Test support for the signed-out pages (not part of the product): a FhirClient over a recording fake
 * fetch, server-shaped answers, and a render helper with the router and toast area the app provides.
 */
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { SnackbarProvider } from 'notistack';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { FakeFetch, fakeJwt, jsonResponse } from '../../data-provider/client/fakeFetch';
import { FhirClient } from '../../data-provider/client';
import { MemoryStorage } from '../../data-provider/client/clientStorage';

export const server = 'http://localhost:8103/';

/** A 400 OperationOutcome naming `field` (or none), as the server's auth routes answer. */
export function refusal(text: string, field?: string, status = 400): Response {
  return jsonResponse(
    {
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: 'invalid', details: { text }, ...(field ? { expression: [field] } : {}) }],
    },
    status,
  );
}

export function membership(id: string, profile: string, project: string) {
  return {
    resourceType: 'ProjectMembership',
    id,
    profile: { reference: `Practitioner/${id}`, display: profile },
    project: { reference: `Project/p-${id}`, display: project },
  };
}

const clinicSession = jsonResponse({
  profile: { resourceType: 'Practitioner', id: 'dr1' },
  project: { resourceType: 'Project', id: 'p1', name: 'Clinic' },
  membership: { resourceType: 'ProjectMembership', id: 'm1' },
});

/**
 * A client whose server is `fake`; registration open unless told otherwise, a code exchange that
 * works, and `me` as the answer of `auth/me`.
 */
export function fakeServer(
  registration: { registration: 'open' | 'closed'; googleClientId: string | null } = {
    registration: 'open',
    googleClientId: null,
  },
  me: Response = clinicSession,
) {
  const fake = new FakeFetch();
  fake.on('GET', `${server}auth/registration`, jsonResponse(registration));
  fake.on(
    'POST',
    `${server}oauth2/token`,
    jsonResponse({
      access_token: fakeJwt({ exp: Math.floor(Date.now() / 1000) + 3600 }),
      refresh_token: 'r1',
      project: { reference: 'Project/p1' },
      profile: { reference: 'Practitioner/dr1' },
    }),
  );
  fake.on('GET', `${server}auth/me`, me);
  const client = new FhirClient({ baseUrl: server, fetch: fake.fetch, storage: new MemoryStorage(), autoBatchTime: 0 });
  return { fake, client };
}

/** Renders `element` at `path` (matched by `route`) inside the toast area, as the app does. */
export function renderAt(element: ReactElement, path: string, route = path.split('?')[0] as string) {
  return render(
    <SnackbarProvider>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={route} element={element} />
          <Route path="*" element={<p>Elsewhere</p>} />
        </Routes>
      </MemoryRouter>
    </SnackbarProvider>,
  );
}

export function sentJson(call: { body: unknown }): Record<string, unknown> {
  return JSON.parse(call.body as string) as Record<string, unknown>;
}
