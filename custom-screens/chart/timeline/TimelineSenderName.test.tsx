import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Resource } from '@medplum/fhirtypes';
import {
  chartPatient,
  chartRecords,
  frontDeskPolicy,
  patientPortalPolicy,
  renderChartAs,
  requestedTypes,
} from '../chartAccessTestSupport';

/** As an integration or a bot writes a message: the sender by reference only, no display. */
const fromIntegration = {
  resourceType: 'Communication',
  id: 'c2',
  status: 'completed',
  subject: { reference: 'Patient/p1' },
  sender: { reference: 'Practitioner/623dda6d-a1d5-4c1f-9d39-3f1f5b0d1a2e' },
  recipient: [{ reference: 'Patient/p1' }],
  sent: '2026-11-22T10:00:00Z',
  payload: [{ contentString: 'Your appointment is confirmed.' }],
} as Resource;

const alice = {
  resourceType: 'Practitioner',
  id: '623dda6d-a1d5-4c1f-9d39-3f1f5b0d1a2e',
  name: [{ prefix: ['Dr.'], given: ['Alice'], family: 'Carter' }],
} as Resource;

// The chart's fake server answers from these records: each test adds what it needs.
const seeded = [...chartRecords];
function serve(...records: Resource[]) {
  chartRecords.push(...records);
}

afterEach(() => {
  chartRecords.splice(0, chartRecords.length, ...seeded);
});

/** The integration's message on the timeline: its card (an article named by its title). */
const messageEntry = async () => {
  const timeline = await screen.findByTestId('timeline');
  const text = await within(timeline).findByText('Your appointment is confirmed.', {}, { timeout: 5_000 });
  return text.closest('article') as HTMLElement;
};

describe('a message whose sender is a bare reference, on the timeline', { timeout: 30_000 }, () => {
  it('names the sender the chat’s lookup finds, never the reference', async () => {
    serve(fromIntegration, alice);
    renderChartAs({ policy: frontDeskPolicy }, '/Patient/p1');
    const entry = await messageEntry();
    expect(
      await within(entry).findByRole('link', { name: 'From Alice Carter' }, { timeout: 5_000 }),
    ).toBeInTheDocument();
    expect(entry).toHaveAccessibleName('Message: From Alice Carter');
    expect(screen.getByTestId('timeline')).not.toHaveTextContent(/Practitioner\//);
  });

  it('says the sender is unknown when no name can be found, rather than showing the id', async () => {
    serve(fromIntegration);
    renderChartAs({ policy: frontDeskPolicy }, '/Patient/p1');
    const entry = await messageEntry();
    expect(within(entry).getByRole('link', { name: 'From an unknown sender' })).toBeInTheDocument();
    expect(screen.getByTestId('timeline')).not.toHaveTextContent(/Practitioner\//);
  });

  it('in the patient’s own view: the name when her policy lets her read it', async () => {
    serve(fromIntegration, alice);
    renderChartAs({ policy: patientPortalPolicy, profile: chartPatient }, '/Patient/p1');
    const entry = await messageEntry();
    expect(
      await within(entry).findByRole('link', { name: 'From Alice Carter' }, { timeout: 5_000 }),
    ).toBeInTheDocument();
  });

  it('in the patient’s own view: her care team when the record is kept from her', async () => {
    // The portal policy reads only her compartment: the server finds no Practitioner for her.
    serve(fromIntegration);
    const fake = renderChartAs({ policy: patientPortalPolicy, profile: chartPatient }, '/Patient/p1');
    const entry = await messageEntry();
    expect(await within(entry).findByRole('link', { name: 'From Your care team' })).toBeInTheDocument();
    expect(screen.getByTestId('timeline')).not.toHaveTextContent(/Practitioner\/|Unknown sender|unknown sender/);
    // Asked (the client batches it a moment later): her policy's `*` entry allows the search, which finds none.
    await waitFor(() => expect(requestedTypes(fake)).toContain('Practitioner'));
    expect(within(entry).getByRole('link', { name: 'From Your care team' })).toBeInTheDocument();
  });
});
