import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProjectMembership } from '@medplum/fhirtypes';
import type { FhirClient } from '../../data-provider/client';
import { ShellClientContext, ToastProvider } from '../../src/shell';
import { EPrescribingBell } from './EPrescribingBell';
import { EPrescribingPage } from './EPrescribingPage';

const prescriber: ProjectMembership = {
  resourceType: 'ProjectMembership',
  project: { reference: 'Project/p' },
  user: { reference: 'User/u' },
  profile: { reference: 'Practitioner/alice' },
  identifier: [{ system: 'https://dosespot.com/clinician-id', value: '304015' }],
};

/** The calls these screens make of the client (the session, and bots by identifier). */
function fakeClient(executeBot: (bot: { value: string }, body: unknown) => Promise<unknown>, membership = prescriber) {
  return {
    executeBot: vi.fn(executeBot),
    getActiveLogin: () => ({ accessToken: 't', refreshToken: 'r', project: { reference: 'Project/p' }, profile: {} }),
    getProfile: () => ({ resourceType: 'Practitioner', id: 'alice' }),
    getProject: () => ({ resourceType: 'Project', id: 'p' }),
    getProjectMembership: () => membership,
    getUserConfiguration: () => undefined,
    getLogins: () => [],
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  };
}

function renderAt(client: ReturnType<typeof fakeClient>, path: string, element: React.ReactElement) {
  return render(
    <ShellClientContext.Provider value={client as unknown as FhirClient}>
      <ToastProvider>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/dosespot" element={element} />
            <Route path="/Patient/:patientId/dosespot" element={element} />
          </Routes>
        </MemoryRouter>
      </ToastProvider>
    </ShellClientContext.Provider>,
  );
}

const counts = {
  configured: true,
  PendingPrescriptionsCount: 2,
  PendingRxChangeCount: 1,
  RefillRequestsCount: 3,
  TransactionErrorsCount: 4,
};

afterEach(() => vi.useRealTimers());

describe('EPrescribingBell', () => {
  it('shows the summed counts, polls every 10 s and stops at the first error', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let calls = 0;
    const client = fakeClient(async () => {
      calls++;
      if (calls === 3) throw new Error('DoseSpot is down');
      return { ...counts, RefillRequestsCount: calls === 2 ? 13 : 3 };
    });
    renderAt(client, '/dosespot', <EPrescribingBell />);
    const bell = await screen.findByRole('link', { name: 'E-prescribing notifications: 10' });
    expect(bell).toHaveAttribute('href', '/dosespot');
    expect(client.executeBot.mock.calls[0][0]).toEqual({
      system: 'https://www.medplum.com/bots',
      value: 'dosespot-notification-counts-bot',
    });
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(await screen.findByRole('link', { name: 'E-prescribing notifications: 20' })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(await screen.findByRole('link', { name: /unavailable \(DoseSpot is down\)/ })).toBeInTheDocument();
    // Seen, not only heard: the bell is struck through, and the last count (now unknown) is gone.
    expect(screen.getByTestId('eprescribing-bell-unavailable')).toBeInTheDocument();
    expect(screen.queryByTestId('eprescribing-count')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(client.executeBot).toHaveBeenCalledTimes(3);
  });

  it('stops polling when the project has no DoseSpot secrets', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const client = fakeClient(async () => ({ configured: false, missing: ['DOSESPOT_CLINIC_ID'] }));
    renderAt(client, '/dosespot', <EPrescribingBell />);
    expect(
      await screen.findByRole('link', { name: 'E-prescribing notifications: not configured' }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('eprescribing-bell-unavailable')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(client.executeBot).toHaveBeenCalledTimes(1);
  });
});

describe('EPrescribingPage', () => {
  it('syncs the patient, then asks for the frame once, with a Success toast after each', async () => {
    const client = fakeClient(async (bot) =>
      bot.value === 'dosespot-patient-sync-bot'
        ? { configured: true, doseSpotPatientId: 1000 }
        : { configured: true, url: 'https://my.staging.dosespot.com/LoginSingleSignOn.aspx?PatientId=1000' },
    );
    renderAt(client, '/Patient/pat-1/dosespot', <EPrescribingPage />);
    const frame = await screen.findByTitle('DoseSpot e-prescribing');
    expect(frame).toHaveAttribute('src', 'https://my.staging.dosespot.com/LoginSingleSignOn.aspx?PatientId=1000');
    expect(client.executeBot.mock.calls.map(([bot, body]) => [bot.value, body])).toEqual([
      ['dosespot-patient-sync-bot', { patientId: 'pat-1' }],
      ['dosespot-iframe-bot', { patientId: 'pat-1' }],
    ]);
    await waitFor(() => expect(screen.getAllByText('Success')).toHaveLength(2));
  });

  it('says plainly which secrets to set, and shows no frame, when DoseSpot is not configured', async () => {
    const client = fakeClient(async () => ({ configured: false, missing: ['DOSESPOT_CLINIC_KEY'] }));
    renderAt(client, '/dosespot', <EPrescribingPage />);
    const notice = await screen.findByTestId('eprescribing-not-configured');
    expect(notice).toHaveTextContent('E-prescribing is not configured for this project');
    expect(notice).toHaveTextContent('DOSESPOT_CLINIC_KEY (missing)');
    expect(screen.queryByTitle('DoseSpot e-prescribing')).toBeNull();
    // No patient: DoseSpot is asked for the counts first, and that answer already says "not configured".
    expect(client.executeBot.mock.calls.map(([bot]) => bot.value)).toEqual(['dosespot-notification-counts-bot']);
  });

  it('without a patient, asks DoseSpot before framing, and says in words when it cannot be reached', async () => {
    let down = true;
    const client = fakeClient(async (bot) => {
      if (bot.value === 'dosespot-notification-counts-bot') {
        if (down) throw new Error('Bot error: fetch: cannot resolve my.staging.dosespot.com');
        return counts;
      }
      return { configured: true, url: 'https://my.staging.dosespot.com/LoginSingleSignOn.aspx?RefillsErrors=1' };
    });
    renderAt(client, '/dosespot', <EPrescribingPage />);
    const alert = await screen.findByTestId('eprescribing-error');
    expect(alert).toHaveTextContent('DoseSpot cannot be reached from here');
    expect(alert).toHaveTextContent('could not connect to DoseSpot (my.staging.dosespot.com)');
    expect(alert).not.toHaveTextContent('deploy-dosespot');
    // Never the browser's broken-frame page: the frame's address was not even asked for.
    expect(screen.queryByTitle('DoseSpot e-prescribing')).toBeNull();
    expect(client.executeBot.mock.calls.map(([bot]) => bot.value)).toEqual(['dosespot-notification-counts-bot']);

    down = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTitle('DoseSpot e-prescribing')).toHaveAttribute(
      'src',
      'https://my.staging.dosespot.com/LoginSingleSignOn.aspx?RefillsErrors=1',
    );
  });

  it('says DoseSpot cannot be reached when the patient sync cannot connect, without the deploy hint', async () => {
    const client = fakeClient(async () => {
      throw new Error('Bot error: connect ECONNREFUSED 203.0.113.5:443');
    });
    renderAt(client, '/Patient/pat-1/dosespot', <EPrescribingPage />);
    const alert = await screen.findByTestId('eprescribing-error');
    expect(alert).toHaveTextContent('DoseSpot cannot be reached from here');
    expect(alert).toHaveTextContent('Details: Bot error: connect ECONNREFUSED 203.0.113.5:443');
    expect(alert).not.toHaveTextContent('deploy-dosespot');
    expect(client.executeBot.mock.calls.map(([bot]) => bot.value)).toEqual(['dosespot-patient-sync-bot']);
  });

  it('shows the bot error and never a frame', async () => {
    const client = fakeClient(async () => {
      throw new Error('No Bot with identifier https://www.medplum.com/bots|dosespot-iframe-bot');
    });
    renderAt(client, '/dosespot', <EPrescribingPage />);
    expect(await screen.findByText('DoseSpot could not be opened')).toBeInTheDocument();
    expect(screen.getByText(/No Bot with identifier/)).toBeInTheDocument();
    expect(screen.getByTestId('eprescribing-error')).toHaveTextContent('npm run deploy-dosespot');
    expect(screen.queryByTitle('DoseSpot e-prescribing')).toBeNull();
  });

  it('is not shown to a member without a DoseSpot clinician id', async () => {
    const client = fakeClient(async () => counts, { ...prescriber, identifier: [] });
    renderAt(client, '/dosespot', <EPrescribingPage />);
    expect(await screen.findByText(/E-prescribing is not enabled for your account/)).toBeInTheDocument();
    expect(client.executeBot).not.toHaveBeenCalled();
  });
});
