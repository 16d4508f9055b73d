import { deflateSync } from 'node:zlib';
import { expect, test, type Browser, type Page, type WebSocketRoute } from '@playwright/test';
import { injectAxe } from './axeInjection';
import { api, main, rawApi, signInAs } from './consoleSupport';

/**
 * Live chat between a clinician and the demo patient (two browser contexts), a forced socket
 * drop, an upload with progress, and the e-prescribing gate (app-spec §2.12, §4, §6, §8).
 */

const shots = 'docs/screenshots';
const alice = 'alice@demo.hearth.example';
const ben = 'ben@demo.hearth.example';
const patientEmail = 'patient@demo.hearth.example';
// The chart around these screens is checked by its own tests; these check what this feature draws.
const chatPanel = 'section[aria-label^="Chat with"]';
const notConfigured = '[data-testid="eprescribing-not-configured"]';

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  return context.newPage();
}

function messages(page: Page, text: string) {
  return page.getByTestId('chat-message').filter({ hasText: text });
}

async function setScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.evaluate((value) => localStorage.setItem('colorScheme', value), scheme);
  await page.reload();
}

/** Serious and critical axe-core findings on the page. */
async function seriousViolations(page: Page, context: string): Promise<string[]> {
  await injectAxe(page);
  return page.evaluate(async (selector) => {
    type Result = { violations: { id: string; impact: string; nodes: { target: string[] }[] }[] };
    const axe = (window as unknown as { axe: { run: (context: string) => Promise<Result> } }).axe;
    const result = await axe.run(selector);
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }, context);
}

/** Uploads through the chat's paperclip with the upload throttled, so the progress can be seen (and photographed). */
async function uploadWithProgress(
  page: Page,
  name: string,
  mimeType: string,
  buffer: Buffer,
  shot: string,
): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 256 * 1024,
  });
  await page.getByTestId('chat-attach-input').setInputFiles({ name, mimeType, buffer });
  const notice = page.getByTestId('upload-notice');
  await expect(notice).toContainText(new RegExp(`Uploading ${name.replace('.', '\\.')}: \\d+%`), { timeout: 10_000 });
  await page.screenshot({ path: shot });
  await expect(notice).toHaveAttribute('data-phase', 'complete', { timeout: 30_000 });
  await expect(notice).toContainText(`Upload complete: ${name}`);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  // Closes by itself 2 s after completing.
  await expect(notice).toHaveCount(0, { timeout: 5000 });
  await cdp.detach();
}

/** A real one-page PDF saying "Lab results", padded with a comment to `size` bytes so its upload shows progress. */
function labResultsPdf(size: number): Buffer {
  const content = 'BT /F1 24 Tf 72 720 Td (Lab results: HbA1c 6.9 %) Tj ET';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(pdf.length);
    pdf += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  pdf += `%${' '.repeat(Math.max(0, size - pdf.length - 400))}\n`;
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real PNG of noisy skin tones (incompressible, so about width × height × 3 bytes: big enough to show progress). */
function noisePng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      const noise = Math.floor(Math.random() * 40);
      rows.set([200 + (noise % 40), 150 + noise, 130 + noise], row + 1 + x * 3);
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

test.describe('chat with a patient', () => {
  test('clinician and patient exchange messages live, survive a dropped socket, and share a file', async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    // The patient, in the portal (not the staff shell).
    const patient = await newPage(browser);
    await signInAs(patient, patientEmail);
    await expect(patient.getByRole('heading', { name: 'Messages with your care team' })).toBeVisible();
    await expect(patient.getByRole('navigation', { name: 'Patient portal' })).toBeVisible();
    await expect(patient.getByRole('link', { name: 'Patients' })).toHaveCount(0);
    const recordHref = await patient.getByRole('link', { name: 'My record' }).getAttribute('href');
    const patientId = (recordHref ?? '').replace('/Patient/', '');
    expect(patientId).toMatch(/^[\w-]+$/);

    // The clinician, with every realtime socket routed so that the test can drop it.
    const clinician = await newPage(browser);
    const sockets: { page: WebSocketRoute; server: WebSocketRoute }[] = [];
    await clinician.routeWebSocket(/subscriptions-r4/, (ws) => {
      const server = ws.connectToServer();
      sockets.push({ page: ws, server });
    });
    await signInAs(clinician, alice);
    await clinician.goto(`/Patient/${patientId}/communication`);
    const panel = main(clinician).getByRole('region', { name: /^Chat with / });
    await expect(panel).toBeVisible();
    const title = (await panel.getByRole('heading', { level: 2 }).textContent()) ?? '';
    expect(title.length).toBeGreaterThan(1);
    await expect(panel.getByPlaceholder('Type a message...')).toBeVisible();

    // Clinician → patient, live.
    await panel.getByRole('textbox', { name: 'Message' }).fill('Hello from Dr. Carter');
    await panel.getByRole('button', { name: 'Send' }).click();
    const sent = messages(clinician, 'Hello from Dr. Carter');
    await expect(sent).toHaveAttribute('data-own', 'true');
    await expect(sent).toContainText('Delivered');
    await expect(panel.getByRole('textbox', { name: 'Message' })).toHaveValue('');
    await expect(messages(patient, 'Hello from Dr. Carter')).toBeVisible({ timeout: 5000 });
    await expect(messages(patient, 'Hello from Dr. Carter')).toHaveAttribute('data-own', 'false');
    await expect(messages(patient, 'Hello from Dr. Carter')).toContainText('Dr. Alice Carter');

    // Patient → clinician, live, within a second of the server having it.
    await patient.getByRole('textbox', { name: 'Message' }).fill('Thank you, doctor');
    await patient.getByRole('button', { name: 'Send' }).click();
    await expect(messages(patient, 'Thank you, doctor')).toHaveAttribute('data-own', 'true');
    await expect(messages(clinician, 'Thank you, doctor')).toBeVisible({ timeout: 2000 });
    await expect(messages(clinician, 'Thank you, doctor')).toHaveAttribute('data-own', 'false');
    await expect(panel.getByTestId('chat-time-header').first()).toBeVisible();

    await clinician.screenshot({ path: `${shots}/chat-light.png` });
    expect(await seriousViolations(clinician, chatPanel)).toEqual([]);
    await patient.screenshot({ path: `${shots}/chat-patient-portal-light.png` });
    expect(await seriousViolations(patient, 'body')).toEqual([]);

    // The portal policy lets the patient watch their own conversation only (attack replay).
    const subscribe = (criteria: string) =>
      rawApi(patient, 'POST', 'Subscription', {
        resourceType: 'Subscription',
        status: 'active',
        reason: 'e2e',
        criteria,
        channel: { type: 'websocket' },
      });
    const otherPatient = (await api(clinician, 'GET', `Patient?_id:not=${patientId}&_count=1`)).entry[0].resource.id;
    expect((await subscribe(`Communication?subject=Patient/${otherPatient}`)).status).toBe(403);
    expect((await subscribe('Communication?status=in-progress')).status).toBe(403);
    expect((await subscribe(`Task?owner=Patient/${patientId}`)).status).toBe(403);
    expect((await rawApi(patient, 'GET', `Communication?subject=Patient/${otherPatient}`)).body.entry ?? []).toEqual(
      [],
    );

    // Drop the clinician's socket: red notice; a message sent meanwhile arrives once after the reconnect.
    expect(sockets.length).toBeGreaterThan(0);
    const current = sockets.at(-1) as (typeof sockets)[number];
    await current.server.close();
    await current.page.close();
    await expect(clinician.getByText('Live chat disconnected. Attempting to reconnect...')).toBeVisible();
    await patient.getByRole('textbox', { name: 'Message' }).fill('Sent while you were offline');
    await patient.getByRole('button', { name: 'Send' }).click();
    await expect(messages(patient, 'Sent while you were offline')).toBeVisible();
    await expect(clinician.getByText('Live chat reconnected.')).toBeVisible({ timeout: 20_000 });
    await expect(messages(clinician, 'Sent while you were offline')).toHaveCount(1);
    await expect(clinician.getByText('Live chat disconnected. Attempting to reconnect...')).toHaveCount(0);
    // And the reconnected socket is live again.
    await patient.getByRole('textbox', { name: 'Message' }).fill('Back online?');
    await patient.getByRole('button', { name: 'Send' }).click();
    await expect(messages(clinician, 'Back online?')).toHaveCount(1, { timeout: 5000 });
    // Shown to its recipient, the patient's message is marked read (off the clinician's Mail count).
    await expect
      .poll(async () => {
        const latest = await api(clinician, 'GET', `Communication?subject=Patient/${patientId}&_sort=-sent&_count=1`);
        const read = latest.entry[0].resource;
        return `${read.payload[0].contentString}: ${read.status}, received ${read.received ? 'yes' : 'no'}`;
      })
      .toBe('Back online?: completed, received yes');
    for (const text of ['Hello from Dr. Carter', 'Thank you, doctor']) {
      await expect(messages(clinician, text)).toHaveCount(1);
    }

    // An upload with progress, a Media created as preparation and then completed.
    const pdf = labResultsPdf(1024 * 1024);
    await uploadWithProgress(
      clinician,
      'lab-results.pdf',
      'application/pdf',
      pdf,
      `${shots}/chat-upload-progress-light.png`,
    );
    const media = await api(clinician, 'GET', `Media?subject=Patient/${patientId}&_sort=-_lastUpdated`);
    const uploaded = media.entry[0].resource;
    expect(uploaded.status).toBe('completed');
    expect(uploaded.content).toMatchObject({
      contentType: 'application/pdf',
      title: 'lab-results.pdf',
      size: pdf.length,
    });
    // Stored as Binary/{id}; the server answers it as a signed download address.
    expect(uploaded.content.url).toMatch(/\/storage\/|Binary\//);
    const history = await api(clinician, 'GET', `Media/${uploaded.id}/_history`);
    expect(history.entry.map((e: { resource: { status: string } }) => e.resource.status)).toEqual([
      'completed',
      'preparation',
    ]);
    // The file is in the conversation on both sides, with its size.
    await expect(messages(clinician, 'lab-results.pdf')).toContainText('(1 M)');
    await expect(messages(patient, 'lab-results.pdf')).toBeVisible({ timeout: 5000 });

    // Dark: an image upload, shown inline on both sides.
    await setScheme(clinician, 'dark');
    await setScheme(patient, 'dark');
    await expect(messages(clinician, 'Back online?')).toBeVisible();
    const image = noisePng(480, 400);
    await uploadWithProgress(clinician, 'rash-photo.png', 'image/png', image, `${shots}/chat-upload-progress-dark.png`);
    await expect(messages(clinician, 'rash-photo.png').getByRole('img', { name: 'rash-photo.png' })).toBeVisible();
    await expect(messages(patient, 'rash-photo.png').getByRole('img', { name: 'rash-photo.png' })).toBeVisible({
      timeout: 5000,
    });
    await clinician.screenshot({ path: `${shots}/chat-dark.png` });
    expect(await seriousViolations(clinician, chatPanel)).toEqual([]);
    await patient.screenshot({ path: `${shots}/chat-patient-portal-dark.png` });
    expect(await seriousViolations(patient, 'body')).toEqual([]);
  });

  test('a failed send keeps the text and shows a red Error notice that stays', async ({ page }) => {
    await signInAs(page, alice);
    // A conversation opened by one of its messages (/communication/{id}) is titled with its patient.
    const found = await api(page, 'GET', 'Communication?subject:missing=false&_count=50');
    const message = found.entry
      .map((entry: { resource: { payload?: { contentString?: string }[] } }) => entry.resource)
      .find((resource: { payload?: { contentString?: string }[] }) => resource.payload?.[0]?.contentString);
    const subject = await api(page, 'GET', message.subject.reference);
    await page.goto(`/communication/${message.id}`);
    await expect(page.getByRole('region', { name: /^Chat with / }).getByRole('heading', { level: 2 })).toHaveText(
      `${subject.name[0].given[0]} ${subject.name[0].family}`,
    );
    await expect(messages(page, message.payload[0].contentString)).toBeVisible();

    const box = page.getByRole('textbox', { name: 'Message' });
    await expect(box).toBeVisible();
    await page.route('**/fhir/R4/Communication', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 400,
            contentType: 'application/fhir+json',
            body: JSON.stringify({
              resourceType: 'OperationOutcome',
              issue: [{ severity: 'error', code: 'invalid', details: { text: 'Refused for the test' } }],
            }),
          })
        : route.continue(),
    );
    await box.fill('Please keep this text');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByText(/Refused for the test/)).toBeVisible();
    await expect(page.getByText(/^Error/)).toBeVisible();
    await expect(box).toHaveValue('Please keep this text');
    // Still there after the usual 4 s toast time.
    await page.waitForTimeout(4500);
    await expect(page.getByText(/Refused for the test/)).toBeVisible();
    // The toast stands above the message box, not over Send: the retry is one click away, at the
    // desktop and the tablet width alike (at 860 px the toast used to cover Send).
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 860, height: 760 },
    ]) {
      await page.setViewportSize(viewport);
      await box.scrollIntoViewIfNeeded();
      const send = page.getByRole('button', { name: 'Send' });
      const toast = page.locator('.notistack-MuiContent').filter({ hasText: /Refused for the test/ });
      await expect(toast).toBeVisible();
      await expect
        .poll(async () => {
          const [a, b] = [await send.boundingBox(), await toast.boundingBox()];
          return !!a && !!b && a.y >= b.y + b.height;
        })
        .toBe(true);
      await send.click({ trial: true, timeout: 2000 });
    }
  });
});

test.describe('chat with a patient who has died', () => {
  test('says so at once, closes the box with its reason, keeps the history and the draft', async ({ page }) => {
    await signInAs(page, alice);
    // A patient of this test alone, removed at the end: the demo clinic's patients stay as seeded.
    const patient = await api(page, 'POST', 'Patient', {
      resourceType: 'Patient',
      name: [{ given: ['Ada'], family: 'Finch' }],
      birthDate: '1931-05-02',
    });
    const patientRef = `Patient/${patient.id}`;
    const earlier = await api(page, 'POST', 'Communication', {
      resourceType: 'Communication',
      status: 'completed',
      subject: { reference: patientRef },
      sender: { reference: patientRef, display: 'Ada Finch' },
      sent: '2024-02-20T09:30:00Z',
      payload: [{ contentString: 'Thank you, see you on Monday' }],
    });
    try {
      // Alive: the clinician starts a message and looks at another tab of the chart.
      await page.goto(`/Patient/${patient.id}/communication`);
      const panel = main(page).getByRole('region', { name: 'Chat with Ada Finch' });
      await panel.getByRole('textbox', { name: 'Message' }).fill('Reminder: your flu vaccination is due');
      await page.goto(`/Patient/${patient.id}/timeline`);
      await expect(page.getByTestId('timeline')).toBeVisible();

      // The death is recorded; the conversation is opened again.
      await api(page, 'PUT', patientRef, { ...patient, deceasedDateTime: '2024-03-03' });
      await page.goto(`/Patient/${patient.id}/communication`);
      // The chart's notice says the death, across the top; the chat does not say it a second time.
      const notice = page.locator('[data-deceased-notice]');
      await expect(notice).toContainText('Died 3 Mar 2024');
      await expect(panel.getByTestId('chat-closed-notice')).toHaveCount(0);
      await expect(messages(page, 'Thank you, see you on Monday')).toBeVisible();
      const box = panel.getByRole('textbox', { name: 'Replies are disabled' });
      await expect(box).toBeDisabled();
      await expect(box).toHaveValue('Reminder: your flu vaccination is due');
      await expect(panel.getByText('Messaging is closed: the patient has died.')).toBeVisible();
      await expect(panel.getByRole('button', { name: 'Send' })).toBeDisabled();
      await expect(panel.getByRole('button', { name: 'Attach a file' })).toBeDisabled();
      expect(await seriousViolations(page, chatPanel)).toEqual([]);
      await setScheme(page, 'dark');
      await expect(notice).toContainText('Died 3 Mar 2024');
      await expect(box).toHaveValue('Reminder: your flu vaccination is due');
      expect(await seriousViolations(page, chatPanel)).toEqual([]);
      const conversation = await api(page, 'GET', `Communication?subject=${patientRef}`);
      expect(conversation.entry.map((entry: { resource: { id: string } }) => entry.resource.id)).toEqual([earlier.id]);
    } finally {
      await api(page, 'DELETE', `Communication/${earlier.id}`);
      await api(page, 'DELETE', patientRef);
    }
  });
});

test.describe('attachments on the chart', () => {
  test('a file uploaded on the timeline becomes a Media shown there; a refused upload says Upload error', async ({
    page,
  }) => {
    await signInAs(page, alice);
    const patientId = (await api(page, 'GET', 'Patient?_count=1')).entry[0].resource.id;
    await page.goto(`/Patient/${patientId}/timeline`);
    await page.getByTestId('media-upload-input').setInputFiles({
      name: 'discharge-letter.pdf',
      mimeType: 'application/pdf',
      buffer: labResultsPdf(20_000),
    });
    const notice = page.getByTestId('upload-notice');
    await expect(notice).toHaveAttribute('data-phase', 'complete');
    await expect(notice).toHaveCSS('background-color', 'rgb(0, 105, 92)'); // teal
    await expect(page.getByTestId('timeline').getByRole('button', { name: 'View discharge-letter.pdf' })).toBeVisible();
    await expect(notice).toHaveCount(0, { timeout: 5000 });

    await page.route('**/fhir/R4/Binary*', (route) =>
      route.fulfill({
        status: 413,
        contentType: 'application/fhir+json',
        body: JSON.stringify({
          resourceType: 'OperationOutcome',
          issue: [{ severity: 'error', code: 'too-costly', details: { text: 'File too large' } }],
        }),
      }),
    );
    await page.getByTestId('media-upload-input').setInputFiles({
      name: 'huge-scan.pdf',
      mimeType: 'application/pdf',
      buffer: labResultsPdf(5_000),
    });
    await expect(notice).toHaveAttribute('data-phase', 'error');
    await expect(notice).toContainText('Upload error');
    await expect(notice).toContainText('File too large');
    await expect(notice).toHaveCSS('background-color', 'rgb(198, 40, 40)'); // red
    await expect(notice).toHaveCount(0, { timeout: 5000 });
    // The Media stays in preparation: nothing claims a file that is not there.
    const media = await api(page, 'GET', `Media?subject=Patient/${patientId}&_sort=-_lastUpdated&_count=1`);
    expect(media.entry[0].resource).toMatchObject({ status: 'preparation', content: { title: 'huge-scan.pdf' } });
  });
});

test.describe('e-prescribing', () => {
  test('alice sees the bell and a plain not-configured frame; ben sees none of it', async ({ browser }) => {
    const page = await newPage(browser);
    await signInAs(page, alice);
    const bell = page.getByTestId('eprescribing-bell');
    await expect(bell).toHaveAttribute('href', '/dosespot');
    await expect(bell).toHaveAttribute('aria-label', 'E-prescribing notifications: not configured');
    // Seen too: struck through in the warning colour, not an ordinary bell that reads as "nothing pending".
    await expect(bell.getByTestId('eprescribing-bell-unavailable')).toBeVisible();
    await bell.click();
    await expect(page).toHaveURL(/\/dosespot$/);
    const notice = page.getByTestId('eprescribing-not-configured');
    await expect(notice).toContainText('E-prescribing is not configured for this project');
    for (const secret of [
      'DOSESPOT_CLINIC_ID',
      'DOSESPOT_CLINIC_KEY',
      'DOSESPOT_SUBSCRIPTION_KEY',
      'DOSESPOT_BASE_URL',
    ]) {
      await expect(notice).toContainText(secret);
    }
    await expect(page.getByTestId('eprescribing-frame')).toHaveCount(0);

    const patients = await api(page, 'GET', 'Patient?_count=1');
    await page.goto(`/Patient/${patients.entry[0].resource.id}`);
    await page.getByRole('tab', { name: 'DoseSpot' }).click();
    await expect(page).toHaveURL(new RegExp(`/Patient/${patients.entry[0].resource.id}/dosespot$`));
    await expect(page.getByTestId('eprescribing-not-configured')).toBeVisible();
    await page.screenshot({ path: `${shots}/eprescribing-light.png` });
    expect(await seriousViolations(page, notConfigured)).toEqual([]);
    await setScheme(page, 'dark');
    await expect(page.getByTestId('eprescribing-not-configured')).toBeVisible();
    await page.screenshot({ path: `${shots}/eprescribing-dark.png` });
    expect(await seriousViolations(page, notConfigured)).toEqual([]);

    const front = await newPage(browser);
    await signInAs(front, ben);
    await expect(front.getByRole('link', { name: 'Tasks' }).first()).toBeVisible();
    await expect(front.getByTestId('eprescribing-bell')).toHaveCount(0);
    await front.goto(`/Patient/${patients.entry[0].resource.id}`);
    await expect(front.getByRole('tab', { name: 'Communications' })).toBeVisible();
    await expect(front.getByRole('tab', { name: 'DoseSpot' })).toHaveCount(0);
    await front.goto(`/Patient/${patients.entry[0].resource.id}/dosespot`);
    await expect(front.getByTestId('eprescribing-not-configured')).toHaveCount(0);
    await expect(front.getByTestId('eprescribing-frame')).toHaveCount(0);
    await front.goto('/dosespot');
    await expect(front.getByTestId('eprescribing-not-configured')).toHaveCount(0);
    await expect(front.getByTestId('eprescribing-frame')).toHaveCount(0);
  });
});
