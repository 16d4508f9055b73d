import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { AccessPolicy, ClientApplication, SmartAppLaunch } from '@medplum/fhirtypes';
import { FhirClient } from '../../../data-provider/client';
import { FakeFetch, fakeJwt, jsonResponse } from '../../../data-provider/client/fakeFetch';
import { FhirClientContext } from '../../../src/resources/useFhirClient';
import { ToastProvider } from '../../../src/shell/toasts';
import { AppLaunchMenu, type LaunchTab } from './AppLaunchMenu';
import { chartLaunchContext, launchableApps } from './launchableApps';

const base = 'https://hearth.test/';

const apps: ClientApplication[] = [
  { resourceType: 'ClientApplication', id: 'z', name: 'Zeta growth chart', launchUri: 'https://zeta.example/launch' },
  {
    resourceType: 'ClientApplication',
    id: 'a',
    name: 'Alpha risk score',
    description: 'Cardiac risk from the chart',
    launchUri: 'https://alpha.example/launch.html?client_id=a',
  },
  // Not launchable: no launch URI, or one the browser must not be sent to.
  { resourceType: 'ClientApplication', id: 'n', name: 'Backend service' },
  { resourceType: 'ClientApplication', id: 'j', name: 'Old script', launchUri: 'javascript:alert(1)' },
];

function setup(clients: ClientApplication[], options: { failLaunch?: string; policy?: AccessPolicy } = {}) {
  const fake = new FakeFetch();
  fake.on(
    'GET',
    `${base}auth/me`,
    jsonResponse({
      profile: { resourceType: 'Practitioner', id: 'ben' },
      project: { resourceType: 'Project', id: 'p1' },
      membership: { resourceType: 'ProjectMembership', id: 'm1' },
      accessPolicy: options.policy,
    }),
  );
  fake.on('GET', /\/fhir\/R4\/ClientApplication\?/, () =>
    jsonResponse({ resourceType: 'Bundle', type: 'searchset', entry: clients.map((resource) => ({ resource })) }),
  );
  fake.on('POST', /\/fhir\/R4\/SmartAppLaunch$/, (call) =>
    options.failLaunch
      ? jsonResponse(
          {
            resourceType: 'OperationOutcome',
            issue: [{ severity: 'error', code: 'forbidden', details: { text: options.failLaunch } }],
          },
          403,
        )
      : jsonResponse({ ...JSON.parse(call.body as string), id: 'launch-1' }, 201),
  );
  const client = new FhirClient({ baseUrl: base, fetch: fake.fetch, autoBatchTime: 0 });
  const signIn = async () => {
    client.setAccessToken(fakeJwt({ exp: Math.floor(Date.now() / 1000) + 3600 }));
    await client.refreshProfile();
  };
  const tab = { go: vi.fn<(url: string) => void>(), close: vi.fn<() => void>() };
  const openTab = vi.fn<() => LaunchTab | undefined>(() => tab);
  const renderMenu = (context: { patientId: string; encounterId?: string }) =>
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <FhirClientContext.Provider value={client}>
          <ToastProvider>
            <AppLaunchMenu context={context} openTab={openTab} />
          </ToastProvider>
        </FhirClientContext.Provider>
      </QueryClientProvider>,
    );
  const launches = () =>
    fake.callsTo('POST', /\/SmartAppLaunch$/).map((call) => JSON.parse(call.body as string) as SmartAppLaunch);
  return { renderMenu, tab, openTab, launches, signIn, fake };
}

describe('launchableApps and chartLaunchContext', () => {
  it('keeps apps with an allowed launch URI, by name', () => {
    expect(launchableApps(apps).map((app) => app.id)).toEqual(['a', 'z']);
  });

  it('takes the encounter from an encounter opened in the chart, and nothing from other tabs', () => {
    expect(chartLaunchContext('p1', 'Encounter/e9/details')).toEqual({ patientId: 'p1', encounterId: 'e9' });
    expect(chartLaunchContext('p1', 'Encounter')).toEqual({ patientId: 'p1' });
    expect(chartLaunchContext('p1', 'Task/t1/details')).toEqual({ patientId: 'p1' });
  });
});

describe('AppLaunchMenu', { timeout: 20_000 }, () => {
  it('launches an app with the patient and encounter: saves the launch, then sends the new tab to the app', async () => {
    const user = userEvent.setup();
    const { renderMenu, tab, launches } = setup(apps);
    renderMenu({ patientId: 'p1', encounterId: 'e9' });
    await user.click(await screen.findByRole('button', { name: 'Apps' }));
    expect(screen.getByRole('menu', { name: 'Launch with this patient and encounter' })).toBeInTheDocument();
    const items = screen.getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Alpha risk scoreCardiac risk from the chart',
      'Zeta growth chartzeta.example',
    ]);
    await user.click(items[0]);
    await waitFor(() => expect(tab.go).toHaveBeenCalledTimes(1));
    expect(launches()).toEqual([
      {
        resourceType: 'SmartAppLaunch',
        patient: { reference: 'Patient/p1' },
        encounter: { reference: 'Encounter/e9' },
      },
    ]);
    const url = new URL(tab.go.mock.calls[0][0]);
    expect(url.origin + url.pathname).toBe('https://alpha.example/launch.html');
    expect(url.searchParams.get('client_id')).toBe('a');
    expect(url.searchParams.get('iss')).toBe('https://hearth.test/fhir/R4');
    expect(url.searchParams.get('launch')).toBe('launch-1');
    expect(await screen.findByText('Alpha risk score opened in a new tab with this patient')).toBeInTheDocument();
    expect(tab.close).not.toHaveBeenCalled();
  });

  it('closes the new tab and shows the server’s reason when the launch cannot be saved', async () => {
    const user = userEvent.setup();
    const { renderMenu, tab } = setup(apps, { failLaunch: 'Forbidden: SmartAppLaunch is not allowed' });
    renderMenu({ patientId: 'p1' });
    await user.click(await screen.findByRole('button', { name: 'Apps' }));
    expect(screen.getByRole('menu', { name: 'Launch with this patient' })).toBeInTheDocument();
    await user.click(screen.getByRole('menuitem', { name: /Zeta/ }));
    expect(await screen.findByText(/SmartAppLaunch is not allowed/)).toBeInTheDocument();
    expect(tab.close).toHaveBeenCalledTimes(1);
    expect(tab.go).not.toHaveBeenCalled();
  });

  it('says so when the browser blocks the tab, and saves no launch', async () => {
    const user = userEvent.setup();
    const { renderMenu, openTab, launches } = setup(apps);
    openTab.mockReturnValue(undefined);
    renderMenu({ patientId: 'p1' });
    await user.click(await screen.findByRole('button', { name: 'Apps' }));
    await user.click(screen.getByRole('menuitem', { name: /Alpha/ }));
    expect(await screen.findByText(/The browser blocked the new tab for Alpha risk score/)).toBeInTheDocument();
    expect(launches()).toEqual([]);
  });

  it('shows no Apps button when the project has no app to launch', async () => {
    const { renderMenu } = setup([apps[2], apps[3]]);
    renderMenu({ patientId: 'p1' });
    // The search has answered (nothing launchable) and nothing is shown.
    await waitFor(() => expect(document.body.textContent).toBe(''));
    expect(screen.queryByRole('button', { name: 'Apps' })).toBeNull();
  });

  it('does not ask for apps when the access policy does not let the caller read them (the front desk)', async () => {
    const frontDesk: AccessPolicy = {
      resourceType: 'AccessPolicy',
      name: 'Front desk',
      resource: [{ resourceType: 'Patient' }, { resourceType: 'Appointment' }],
    };
    const { renderMenu, signIn, fake } = setup(apps, { policy: frontDesk });
    await signIn();
    renderMenu({ patientId: 'p1' });
    await waitFor(() => expect(document.body.textContent).toBe(''));
    expect(fake.callsTo('GET', /ClientApplication/)).toEqual([]);
  });

  it('asks when the policy lists ClientApplication', async () => {
    const policy: AccessPolicy = {
      resourceType: 'AccessPolicy',
      resource: [{ resourceType: 'Patient' }, { resourceType: 'ClientApplication', readonly: true }],
    };
    const { renderMenu, signIn } = setup(apps, { policy });
    await signIn();
    renderMenu({ patientId: 'p1' });
    expect(await screen.findByRole('button', { name: 'Apps' })).toBeInTheDocument();
  });
});
