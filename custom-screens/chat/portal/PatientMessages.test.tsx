import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Communication, Patient } from '@medplum/fhirtypes';
import { ShellClientContext, ToastProvider } from '../../../src/shell';
import { chatTestClient, type ChatTestClient } from '../chatTestClient';
import { PORTAL_CLOSED_DETAIL, PORTAL_CLOSED_REASON, PORTAL_CLOSED_TITLE } from '../deceasedMessaging';
import { PatientMessages } from './PatientMessages';

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

function renderPortal(patient: Patient, projectName?: string): ChatTestClient {
  const fake = chatTestClient({ patient, profile: patient, messages: [fromClinic], projectName });
  render(
    <ShellClientContext.Provider value={fake.client}>
      <ToastProvider>
        <PatientMessages patient={{ reference: 'Patient/pat-1', display: 'Wendy Littel' }} />
      </ToastProvider>
    </ShellClientContext.Provider>,
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
});
