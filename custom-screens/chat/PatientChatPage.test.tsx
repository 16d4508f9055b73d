import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccessPolicy, Communication, Patient, Practitioner } from '@medplum/fhirtypes';
import { frontDeskPolicy } from '../../config/access/demoAccessPolicies';
import { DRAFT_KEPT } from './ChatInput';
import { chatTestClient, type ChatTestClient } from './chatTestClient';
import { STAFF_DECEASED_DETAIL, STAFF_DECEASED_REASON } from './deceasedMessaging';
import { PatientChatPage, type PatientChatPageProps } from './PatientChatPage';
import { POLLED_CHAT_NOTICE } from './ChatPanel';
import { CHAT_POLL_MS } from './useConversation';
import { CHAT_DRAFT_KEY_PREFIX } from './useMessageDraft';
import { ChatTestProviders } from './chatTestProviders';

const alice: Practitioner = {
  resourceType: 'Practitioner',
  id: 'alice',
  name: [{ given: ['Alice'], family: 'Carter' }],
};
const wendy: Patient = { resourceType: 'Patient', id: 'pat-1', name: [{ given: ['Wendy'], family: 'Littel' }] };
const draftKey = `${CHAT_DRAFT_KEY_PREFIX}Practitioner/alice|Patient/pat-1`;

const lastMessage: Communication = {
  resourceType: 'Communication',
  id: 'm1',
  status: 'completed',
  sender: { reference: 'Patient/pat-1', display: 'Wendy Littel' },
  subject: { reference: 'Patient/pat-1' },
  recipient: [{ reference: 'Practitioner/alice' }],
  sent: '2024-02-20T09:00:00Z',
  payload: [{ contentString: 'Thank you for everything, doctor' }],
};

function renderChat(
  patient: Patient,
  props: PatientChatPageProps = {},
  policy?: AccessPolicy,
  more: Partial<Parameters<typeof chatTestClient>[0]> = {},
): ChatTestClient {
  const fake = chatTestClient({ patient, profile: alice, messages: [lastMessage], policy, ...more });
  render(
    <ChatTestProviders client={fake.client}>
      <MemoryRouter initialEntries={['/Patient/pat-1/communication']}>
        <Routes>
          <Route path="/Patient/:patientId/communication" element={<PatientChatPage {...props} />} />
        </Routes>
      </MemoryRouter>
    </ChatTestProviders>,
  );
  return fake;
}

const closedBox = () => screen.findByRole('textbox', { name: 'Replies are disabled' });

beforeEach(() => {
  // The live socket's refused Subscription is reported on the console; it is not what these test.
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.restoreAllMocks();
  window.sessionStorage.clear();
});

describe('PatientChatPage: the paperclip only when an upload can go through', () => {
  it('offers it to a member without a policy', async () => {
    renderChat(wendy);
    expect(await screen.findByRole('button', { name: 'Attach a file' })).toBeEnabled();
  });
  it('does not offer it under the front desk policy, which creates no Media (every upload would be Forbidden)', async () => {
    renderChat(wendy, {}, frontDeskPolicy);
    expect(await screen.findByRole('textbox', { name: 'Message' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Attach a file' })).not.toBeInTheDocument();
  });
});

describe('PatientChatPage for a patient who has died', () => {
  it('says so at once, in the warning colour, with the date as people read it', async () => {
    renderChat({ ...wendy, deceasedDateTime: '2024-03-03' });
    const notice = await screen.findByRole('alert');
    expect(notice).toHaveTextContent('Died 3 Mar 2024');
    expect(notice).toHaveTextContent(STAFF_DECEASED_DETAIL);
    expect(notice).toHaveClass('MuiAlert-colorWarning');
    // The history stays readable.
    expect(await screen.findByText('Thank you for everything, doctor')).toBeInTheDocument();
  });

  it('says "Deceased" when no date of death was recorded', async () => {
    renderChat({ ...wendy, deceasedBoolean: true });
    expect(await screen.findByRole('alert')).toHaveTextContent('Deceased');
    expect(await closedBox()).toBeDisabled();
  });

  it('closes the message box, the paperclip and Send, and says why beside the box', async () => {
    const fake = renderChat({ ...wendy, deceasedDateTime: '2024-03-03' });
    const box = await closedBox();
    expect(box).toBeDisabled();
    expect(box).toHaveAccessibleDescription(STAFF_DECEASED_REASON);
    expect(screen.getByText(STAFF_DECEASED_REASON)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Attach a file' })).toBeDisabled();
    // Even a submit that reaches the form (Enter in a stale page) sends nothing.
    fireEvent.submit(box.closest('form') as HTMLFormElement);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fake.posted).toEqual([]);
  });

  it('keeps the draft typed before: shown in the closed box, still stored, said to be unsent', async () => {
    window.sessionStorage.setItem(draftKey, 'Your scan results are ready, please call');
    renderChat({ ...wendy, deceasedDateTime: '2024-03-03' });
    const box = await closedBox();
    expect(box).toHaveValue('Your scan results are ready, please call');
    expect(box).toHaveAccessibleDescription(`${STAFF_DECEASED_REASON} ${DRAFT_KEPT}`);
    expect(window.sessionStorage.getItem(draftKey)).toBe('Your scan results are ready, please call');
  });

  it('stops a message when the death was recorded after the chat opened, keeping its text', async () => {
    const fake = renderChat(wendy);
    const box = await screen.findByRole('textbox', { name: 'Message' });
    fireEvent.change(box, { target: { value: 'Reminder: your appointment is tomorrow' } });
    fake.setPatient({ ...wendy, deceasedDateTime: '2024-03-03' });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Died 3 Mar 2024');
    expect(await closedBox()).toHaveValue('Reminder: your appointment is tomorrow');
    expect(fake.freshPatientReads()).toBe(1);
    expect(fake.posted).toEqual([]);
    expect(window.sessionStorage.getItem(draftKey)).toBe('Reminder: your appointment is tomorrow');
  });
});

describe('PatientChatPage under a notice of the death (the chart’s)', () => {
  it('adds no banner of its own: the closed box says in one line why', async () => {
    const fake = renderChat({ ...wendy, deceasedDateTime: '2024-03-03' }, { deathShownAbove: true });
    const box = await closedBox();
    expect(box).toBeDisabled();
    expect(box).toHaveAccessibleDescription('Messaging is closed: the patient has died.');
    expect(screen.getByText('Messaging is closed: the patient has died.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(await screen.findByText('Thank you for everything, doctor')).toBeInTheDocument();
    expect(screen.queryByTestId('chat-closed-notice')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(/Died 3 Mar 2024/)).toBeNull();
    fireEvent.submit(box.closest('form') as HTMLFormElement);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fake.posted).toEqual([]);
  });
});

describe('PatientChatPage without its live subscription', () => {
  it('says so quietly and reads the conversation again every 30 seconds', async () => {
    // Only the poll's interval is faked: the rest of the page runs on real timers.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const fake = renderChat(wendy);
      // The test client refuses the Subscription, as the server does for a policy without it.
      expect(await screen.findByText(POLLED_CHAT_NOTICE)).toHaveAttribute('role', 'status');
      const search = vi.mocked(fake.client.searchResources);
      const before = search.mock.calls.length;
      vi.advanceTimersByTime(CHAT_POLL_MS);
      await waitFor(() => expect(search.mock.calls.length).toBe(before + 1));
      expect(search.mock.calls.at(-1)?.[0]).toBe('Communication');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('PatientChatPage for a living patient', () => {
  it('messages as before when deceasedBoolean is false', async () => {
    const fake = renderChat({ ...wendy, deceasedBoolean: false });
    const box = await screen.findByRole('textbox', { name: 'Message' });
    expect(box).toBeEnabled();
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.change(box, { target: { value: 'Your results are normal' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(fake.posted).toHaveLength(1));
    expect(fake.posted[0]).toMatchObject({
      subject: { reference: 'Patient/pat-1' },
      recipient: [{ reference: 'Patient/pat-1' }],
      payload: [{ contentString: 'Your results are normal' }],
    });
    await waitFor(() => expect(box).toHaveValue(''));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('PatientChatPage: a message whose sender is a bare reference', () => {
  it('names the sender for the front desk by the looked-up name, not "[Unknown sender]"', async () => {
    const fromIntegration: Communication = {
      ...lastMessage,
      id: 'm2',
      sender: { reference: 'Practitioner/alice' },
      recipient: [{ reference: 'Patient/pat-1' }],
      payload: [{ contentString: 'Your appointment is confirmed' }],
    };
    const ben: Practitioner = { resourceType: 'Practitioner', id: 'ben', name: [{ given: ['Ben'], family: 'Ortiz' }] };
    renderChat(wendy, {}, frontDeskPolicy, {
      profile: ben,
      messages: [lastMessage, fromIntegration],
      practitioners: [{ ...alice, name: [{ prefix: ['Dr.'], given: ['Alice'], family: 'Carter' }] }],
    });
    const bubble = (await screen.findByText('Your appointment is confirmed')).closest(
      '[data-testid="chat-message"]',
    ) as HTMLElement;
    await waitFor(() => expect(bubble.querySelector('[data-testid="chat-sender"]')).toHaveTextContent('Alice Carter'));
    expect(document.body).not.toHaveTextContent(/Unknown sender/);
  });
});
