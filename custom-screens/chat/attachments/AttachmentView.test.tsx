import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Attachment, Bundle, Communication, OperationOutcome, Patient, Practitioner } from '@medplum/fhirtypes';
import { FhirClient, MemoryStorage } from '../../../data-provider/client';
import { FakeFetch, fakeJwt, jsonResponse, type RecordedCall } from '../../../data-provider/client/fakeFetch';
import { EXTERNAL_FILE_LABEL, UNSUPPORTED_FILE_LABEL } from '../../../src/datatypes/AttachmentLink';
import { ShellClientContext } from '../../../src/shell';
import { TimelineAttachment } from '../../chart/timeline/TimelineAttachment';
import { PatientChatPage } from '../PatientChatPage';
import { PatientMessages } from '../portal/PatientMessages';
import { AttachmentView } from './AttachmentView';
import { ChatTestProviders } from '../chatTestProviders';

/**
 * The attack an outside tester found: a patient posts a chat message whose attachment address is
 * the server's own `oauth2/logout`, titled like a lab report. Opening the conversation used to
 * download it with the clinician's token, which the server then revoked: signed out, every time.
 * These tests run the real FhirClient against a fake of the server that revokes as the real one does.
 */

const server = 'http://localhost:8461/';
const fhir = `${server}fhir/R4/`;
const logoutUrl = `${server}oauth2/logout`;

const alice: Practitioner = {
  resourceType: 'Practitioner',
  id: 'alice',
  name: [{ given: ['Alice'], family: 'Carter' }],
};
const wendy: Patient = { resourceType: 'Patient', id: 'pat-1', name: [{ given: ['Wendy'], family: 'Littel' }] };

/** The message as the demo patient posted it (POST Communication → 201). */
const logoutAttachment: Attachment = { url: logoutUrl, title: 'lab-report.pdf', contentType: 'application/pdf' };
const attack: Communication = {
  resourceType: 'Communication',
  id: 'evil-1',
  status: 'in-progress',
  sender: { reference: 'Patient/pat-1', display: 'Wendy Littel' },
  subject: { reference: 'Patient/pat-1' },
  sent: '2026-11-21T10:00:00Z',
  payload: [{ contentAttachment: logoutAttachment }],
};

const unauthorizedOutcome: OperationOutcome = {
  resourceType: 'OperationOutcome',
  issue: [{ severity: 'error', code: 'login', details: { text: 'Unauthorized' } }],
};
const forbiddenOutcome: OperationOutcome = {
  resourceType: 'OperationOutcome',
  issue: [{ severity: 'error', code: 'forbidden', details: { text: 'Forbidden' } }],
};

/** The Authorization header a call carried (happy-dom keeps header names as they were written). */
function bearer(call: RecordedCall): string | undefined {
  return Object.entries(call.headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
}

function searchset(resources: Communication[]): Bundle<Communication> {
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    entry: resources.map((resource) => ({ resource, search: { mode: 'match' } })),
  };
}

interface FakeHearth {
  fake: FakeFetch;
  client: FhirClient;
  token: string;
  /** Whether the server revoked the login (as `oauth2/logout` with its token does). */
  revoked(): boolean;
  onUnauthenticated: ReturnType<typeof vi.fn>;
}

/**
 * The server as the attack meets it: `oauth2/logout` (GET or POST) revokes the login of the bearer
 * token it is sent with; a revoked login's token answers 401 everywhere and cannot be renewed.
 */
function fakeHearth(options: { patient: Patient; messages: Communication[]; profile: Practitioner | Patient }) {
  const fake = new FakeFetch();
  const token = fakeJwt({ login_id: 'login-1', exp: Math.floor(Date.now() / 1000) + 3600 });
  let revoked = false;
  const signedIn = (call: RecordedCall) => !revoked && bearer(call) === `Bearer ${token}`;
  const api =
    (reply: (call: RecordedCall) => Response) =>
    (call: RecordedCall): Response =>
      signedIn(call) ? reply(call) : jsonResponse(unauthorizedOutcome, 401);
  fake.on('GET', logoutUrl, (call) => {
    if (!signedIn(call)) return jsonResponse(unauthorizedOutcome, 401);
    revoked = true;
    return jsonResponse({ ok: true });
  });
  fake.on('POST', logoutUrl, (call) => {
    if (signedIn(call)) revoked = true;
    return jsonResponse({ ok: true });
  });
  fake.on('POST', `${server}oauth2/token`, () =>
    jsonResponse({ error: 'invalid_grant', error_description: 'Invalid token' }, 400),
  );
  fake.on(
    'GET',
    `${fhir}Patient/${options.patient.id}`,
    api(() => jsonResponse(options.patient)),
  );
  fake.on(
    'GET',
    /\/fhir\/R4\/Communication\?/,
    api(() => jsonResponse(searchset(options.messages))),
  );
  fake.on(
    'PUT',
    /\/fhir\/R4\/Communication\//,
    api((call) => jsonResponse(JSON.parse(call.body as string))),
  );
  // The reader's live subscription is refused: the chat polls instead (not what these tests are about).
  fake.on(
    'POST',
    `${fhir}Subscription`,
    api(() => jsonResponse(forbiddenOutcome, 403)),
  );
  const onUnauthenticated = vi.fn();
  const client = new FhirClient({
    baseUrl: server,
    fetch: fake.fetch,
    storage: new MemoryStorage(),
    autoBatchTime: 0,
    onUnauthenticated,
  });
  client.setAccessToken(token, 'refresh-1');
  vi.spyOn(client, 'getProfile').mockReturnValue(options.profile);
  return { fake, client, token, revoked: () => revoked, onUnauthenticated } satisfies FakeHearth;
}

/** Calls that carried the token to anything but this server's FHIR API and auth routes. */
function tokenLeaks(hearth: FakeHearth): RecordedCall[] {
  return hearth.fake.calls.filter(
    (call) => bearer(call) !== undefined && !call.url.startsWith(fhir) && !call.url.startsWith(`${server}auth/`),
  );
}

/** Lets the effects that would download an attachment run and their answers arrive. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

beforeEach(() => {
  // The live socket's refused Subscription is reported on the console; it is not what these test.
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.restoreAllMocks();
  window.sessionStorage.clear();
});

describe('a chat attachment addressed to oauth2/logout (the attack)', () => {
  it('is never requested when alice opens the conversation: she stays signed in, and the message says it was not loaded', async () => {
    const hearth = fakeHearth({ patient: wendy, messages: [attack], profile: alice });
    render(
      <ChatTestProviders client={hearth.client}>
        <MemoryRouter initialEntries={['/Patient/pat-1/communication']}>
          <Routes>
            <Route path="/Patient/:patientId/communication" element={<PatientChatPage />} />
          </Routes>
        </MemoryRouter>
      </ChatTestProviders>,
    );
    const bubble = (await screen.findByText('lab-report.pdf')).closest('[data-testid="chat-message"]') as HTMLElement;
    await settle();

    expect(hearth.fake.calls.filter((call) => call.url.includes('oauth2/logout'))).toEqual([]);
    expect(tokenLeaks(hearth)).toEqual([]);
    expect(hearth.revoked()).toBe(false);
    // She goes on working: her token is still good, nothing signed her out.
    expect(await hearth.client.readResource('Patient', 'pat-1', { cache: 'no-store' })).toMatchObject({ id: 'pat-1' });
    expect(hearth.client.getActiveLogin()?.accessToken).toBe(hearth.token);
    expect(hearth.onUnauthenticated).not.toHaveBeenCalled();

    // The message says what the "lab report" is: an outside address, not loaded, its title no link.
    expect(within(bubble).getByText(new RegExp(EXTERNAL_FILE_LABEL))).toBeInTheDocument();
    expect(within(bubble).queryByRole('link', { name: 'lab-report.pdf' })).not.toBeInTheDocument();
    expect(bubble.querySelector('iframe, img')).toBeNull();
    const link = within(bubble).getByRole('link', { name: 'localhost:8461/oauth2/logout' });
    expect(link).toHaveAttribute('href', logoutUrl);
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('is not requested on the patient portal either, when a clinician sends it to the patient; javascript: is never a link', async () => {
    const fromClinic: Communication = {
      resourceType: 'Communication',
      id: 'evil-2',
      status: 'completed',
      sender: { reference: 'Practitioner/alice', display: 'Dr. Alice Carter' },
      subject: { reference: 'Patient/pat-1' },
      recipient: [{ reference: 'Patient/pat-1' }],
      sent: '2026-11-21T10:00:00Z',
      payload: [
        { contentAttachment: logoutAttachment },
        { contentAttachment: { url: 'javascript:alert(document.domain)', title: 'results.pdf' } },
        { contentAttachment: { url: 'data:text/html,<script>alert(1)</script>', title: 'note.html' } },
        { contentAttachment: { url: 'https://evil.example/x.png', title: 'x.png', contentType: 'image/png' } },
      ],
    };
    const hearth = fakeHearth({ patient: wendy, messages: [fromClinic], profile: wendy });
    const { container } = render(
      <ChatTestProviders client={hearth.client}>
        <PatientMessages patient={{ reference: 'Patient/pat-1', display: 'Wendy Littel' }} />
      </ChatTestProviders>,
    );
    const bubble = (await screen.findByText('results.pdf')).closest('[data-testid="chat-message"]') as HTMLElement;
    await settle();

    expect(hearth.fake.calls.filter((call) => !call.url.startsWith(fhir))).toEqual([]);
    expect(hearth.revoked()).toBe(false);
    expect(hearth.onUnauthenticated).not.toHaveBeenCalled();
    expect(within(bubble).getAllByText(new RegExp(EXTERNAL_FILE_LABEL))).toHaveLength(2);
    expect(within(bubble).getAllByText(UNSUPPORTED_FILE_LABEL)).toHaveLength(2);
    expect(
      within(bubble)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual([logoutUrl, 'https://evil.example/x.png']);
    expect(bubble.querySelector('iframe, img')).toBeNull();
    expect(container.querySelector('[href^="javascript" i], [src^="javascript" i], [href^="data:" i]')).toBeNull();
    expect(container.innerHTML).not.toContain('javascript:');
  });
});

function renderAttachment(hearth: FakeHearth, attachment: Attachment) {
  return render(
    <ShellClientContext.Provider value={hearth.client}>
      <AttachmentView attachment={attachment} />
    </ShellClientContext.Provider>,
  );
}

describe("AttachmentView loads this server's files only", () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
  let blobs: Blob[];

  beforeEach(() => {
    blobs = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return `blob:${server}${blobs.length}`;
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  });

  it('a Binary with the token, a signed storage address without it', async () => {
    const hearth = fakeHearth({ patient: wendy, messages: [], profile: alice });
    hearth.fake.on('GET', `${fhir}Binary/b1`, () => new Response(png, { headers: { 'content-type': 'image/png' } }));
    const signed = `${server}storage/b2/1?Expires=1900000000&Signature=abc`;
    hearth.fake.on('GET', signed, () => new Response(png, { headers: { 'content-type': 'image/png' } }));
    renderAttachment(hearth, { url: 'Binary/b1', title: 'rash.png', contentType: 'image/png' });
    expect(await screen.findByRole('img', { name: 'rash.png' })).toHaveAttribute('src', `blob:${server}1`);
    renderAttachment(hearth, { url: signed, title: 'scan.png', contentType: 'image/png' });
    expect(await screen.findByRole('img', { name: 'scan.png' })).toBeInTheDocument();

    expect(bearer(hearth.fake.callsTo('GET', `${fhir}Binary/b1`)[0])).toBe(`Bearer ${hearth.token}`);
    expect(bearer(hearth.fake.callsTo('GET', signed)[0])).toBeUndefined();
  });

  it('an inline raster image is shown without a request; an inline SVG or HTML is not', async () => {
    const hearth = fakeHearth({ patient: wendy, messages: [], profile: alice });
    renderAttachment(hearth, { url: 'data:image/png;base64,iVBORw==', title: 'dot.png', contentType: 'image/png' });
    expect(await screen.findByRole('img', { name: 'dot.png' })).toBeInTheDocument();
    expect(blobs[0].type).toBe('image/png');
    renderAttachment(hearth, {
      url: 'data:image/svg+xml,<svg onload="alert(1)"/>',
      title: 'logo.svg',
      contentType: 'image/svg+xml',
    });
    expect(await screen.findByText(UNSUPPORTED_FILE_LABEL)).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'logo.svg' })).not.toBeInTheDocument();
    await settle();
    expect(hearth.fake.calls).toEqual([]);
  });

  it('never shows bytes from an object URL as what the answer claims: a "PDF" that is HTML stays a PDF', async () => {
    // happy-dom loads no frame (it reports "Iframe page loading is disabled" on its own console).
    const hearth = fakeHearth({ patient: wendy, messages: [], profile: alice });
    hearth.fake.on(
      'GET',
      `${fhir}Binary/b3`,
      () => new Response('<script>alert(1)</script>', { headers: { 'content-type': 'text/html' } }),
    );
    hearth.fake.on(
      'GET',
      `${fhir}Binary/b4`,
      () => new Response('<svg onload="alert(1)"/>', { headers: { 'content-type': 'image/svg+xml' } }),
    );
    renderAttachment(hearth, { url: 'Binary/b3', title: 'report.pdf', contentType: 'application/pdf' });
    expect(await screen.findByTitle('report.pdf')).toBeInTheDocument();
    renderAttachment(hearth, { url: 'Binary/b4', title: 'notes.txt', contentType: 'text/plain' });
    await waitFor(() => expect(blobs).toHaveLength(2));
    expect(blobs.map((blob) => blob.type)).toEqual(['application/pdf', 'application/octet-stream']);
  });

  it('on the timeline too: "View" shows the outside address as not loaded, and requests nothing', async () => {
    const hearth = fakeHearth({ patient: wendy, messages: [], profile: alice });
    render(
      <ShellClientContext.Provider value={hearth.client}>
        <TimelineAttachment attachment={logoutAttachment} />
      </ShellClientContext.Provider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'View lab-report.pdf' }));
    expect(await screen.findByText(new RegExp(EXTERNAL_FILE_LABEL))).toBeInTheDocument();
    await settle();
    expect(hearth.fake.calls).toEqual([]);
    expect(hearth.client.getActiveLogin()).toBeDefined();
  });
});
