import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AccessPolicy, Communication, Patient, Practitioner } from '@medplum/fhirtypes';
import { patientPortalPolicy } from '../../../config/access/demoAccessPolicies';
import { chatTestClient, type ChatTestClient } from '../chatTestClient';
import { PORTAL_CLOSED_DETAIL, PORTAL_CLOSED_REASON, PORTAL_CLOSED_TITLE } from '../deceasedMessaging';
import { PatientMessages } from './PatientMessages';
import { ChatTestProviders } from '../chatTestProviders';

const wendy: Patient = { resourceType: 'Patient', id: 'pat-1', name: [{ given: ['Wendy'], family: 'Littel' }] };

const fromClinic: Communication = {
  resourceType: 'Communication',
  id: 'm1',
  status: 'completed',
  sender: { reference: 'Practitioner/alice', display: 'Dr. Alice Carter' },
  subject: { reference: 'Patient/pat-1' },
  recipient: [{ reference: 'Patient/pat-1' }],
  sent: '2024-02-20T09:00:00Z',
  payload: [{ contentString: 'Your results are back' }],
};

/** As an integration or a bot writes it: the sender by reference only, no display. */
const fromIntegration: Communication = {
  ...fromClinic,
  id: 'm2',
  sender: { reference: 'Practitioner/623dda6d' },
  sent: '2024-02-21T09:00:00Z',
  payload: [{ contentString: 'Your appointment is confirmed' }],
};

const alice: Practitioner = {
  resourceType: 'Practitioner',
  id: '623dda6d',
  name: [{ prefix: ['Dr.'], given: ['Alice'], family: 'Carter' }],
};

function renderPortal(
  patient: Patient,
  projectName?: string,
  more: Partial<Parameters<typeof chatTestClient>[0]> = {},
): ChatTestClient {
  const fake = chatTestClient({ patient, profile: patient, messages: [fromClinic], projectName, ...more });
  render(
    <ChatTestProviders client={fake.client}>
      <PatientMessages patient={{ reference: 'Patient/pat-1', display: 'Wendy Littel' }} />
    </ChatTestProviders>,
  );
  return fake;
}

beforeEach(() => {
  // The live socket's refused Subscription is reported on the console; it is not what these test.
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.restoreAllMocks();
  window.sessionStorage.clear();
});

describe('PatientMessages (the portal)', () => {
  it('closes messaging for an account whose patient is recorded as deceased, without telling the reader they died', async () => {
    const fake = renderPortal({ ...wendy, deceasedDateTime: '2024-03-03' });
    const notice = await screen.findByRole('alert');
    expect(notice).toHaveTextContent(PORTAL_CLOSED_TITLE);
    expect(notice).toHaveTextContent(PORTAL_CLOSED_DETAIL);
    expect(notice).toHaveClass('MuiAlert-colorInfo');
    expect(document.body).not.toHaveTextContent(/died|deceased|death/i);
    expect(await screen.findByText('Your results are back')).toBeInTheDocument();
    const box = screen.getByRole('textbox', { name: 'Replies are disabled' });
    expect(box).toBeDisabled();
    expect(box).toHaveAccessibleDescription(PORTAL_CLOSED_REASON);
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    fireEvent.submit(box.closest('form') as HTMLFormElement);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fake.posted).toEqual([]);
  });

  it('names the conversation after the clinic the patient writes to, not after the patient', async () => {
    renderPortal(wendy, 'Demo Clinic');
    expect(await screen.findByRole('region', { name: 'Chat with Demo Clinic care team' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('Demo Clinic care team');
    expect(screen.queryByText('Wendy Littel')).toBeNull();
  });

  it('lets a living patient write to the clinician who wrote last', async () => {
    const fake = renderPortal({ ...wendy, deceasedBoolean: false });
    expect(await screen.findByRole('region', { name: 'Chat with Your care team' })).toBeInTheDocument();
    const box = await screen.findByRole('textbox', { name: 'Message' });
    await screen.findByText('Your results are back');
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.change(box, { target: { value: 'Thank you' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(fake.posted).toHaveLength(1));
    expect(fake.posted[0]).toMatchObject({
      sender: { reference: 'Patient/pat-1' },
      recipient: [{ reference: 'Practitioner/alice' }],
      payload: [{ contentString: 'Thank you' }],
    });
  });

  it('calls a sender her policy keeps from her the care team, not "[Unknown sender]" or an id', async () => {
    // The demo portal policy reads only her compartment, which holds no Practitioner: none is found.
    const fake = renderPortal(wendy, 'Demo Clinic', {
      messages: [fromClinic, fromIntegration],
      policy: patientPortalPolicy,
    });
    const bubble = (await screen.findByText('Your appointment is confirmed')).closest(
      '[data-testid="chat-message"]',
    ) as HTMLElement;
    expect(bubble.querySelector('[data-testid="chat-sender"]')).toHaveTextContent('Demo Clinic care team');
    expect(document.body).not.toHaveTextContent(/Unknown sender|Practitioner\//);
    await waitFor(() => expect(fake.client.search).toHaveBeenCalledTimes(1));
    expect(bubble.querySelector('[data-testid="chat-sender"]')).toHaveTextContent('Demo Clinic care team');
  });

  it('names the sender when her policy lets her read the Practitioner', async () => {
    const readsPractitioners: AccessPolicy = {
      ...patientPortalPolicy,
      resource: [...(patientPortalPolicy.resource ?? []), { resourceType: 'Practitioner', readonly: true }],
    };
    renderPortal(wendy, 'Demo Clinic', {
      messages: [fromClinic, fromIntegration],
      practitioners: [alice],
      policy: readsPractitioners,
    });
    const bubble = (await screen.findByText('Your appointment is confirmed')).closest(
      '[data-testid="chat-message"]',
    ) as HTMLElement;
    await waitFor(() => expect(bubble.querySelector('[data-testid="chat-sender"]')).toHaveTextContent('Alice Carter'));
  });
});
