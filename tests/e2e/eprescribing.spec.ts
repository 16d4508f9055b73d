import { expect, test, type Browser, type Page } from '@playwright/test';
import { api, signInAs } from './consoleSupport';
import { aliceCounts, doseSpotClinic, doseSpotOrigin } from './doseSpotTestClinic';

/**
 * E-prescribing configured: the demo clinic's DoseSpot secrets point at the local DoseSpot test
 * server (started by tests/e2e/doseSpotGlobalSetup.ts), and the shipped bots run in the real
 * server's sandbox. The not-configured notice is tested in chat.spec.ts; this test puts the
 * project's secrets back as it found them.
 */

const shots = 'docs/screenshots';
const alice = 'alice@demo.hearth.example';
const ben = 'ben@demo.hearth.example';
const doseSpotSecretNames = [
  'DOSESPOT_CLINIC_ID',
  'DOSESPOT_CLINIC_KEY',
  'DOSESPOT_SUBSCRIPTION_KEY',
  'DOSESPOT_BASE_URL',
];

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- FHIR answers of many shapes

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  return context.newPage();
}

async function setScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.evaluate((value) => localStorage.setItem('colorScheme', value), scheme);
  await page.reload();
}

/** Alice (project admin) saves the project's secrets: the DoseSpot ones replaced by `doseSpot`. */
async function saveDoseSpotSecrets(page: Page, doseSpot: { name: string; valueString: string }[]): Promise<void> {
  const projects = await api(page, 'GET', 'Project');
  const project = projects.entry[0].resource as Json;
  const others = ((project.secret ?? []) as Json[]).filter((secret) => !doseSpotSecretNames.includes(secret.name));
  await api(page, 'PUT', `Project/${project.id}`, { ...project, secret: [...others, ...doseSpot] });
}

/** A demo patient DoseSpot will take: name, birth date, address and a 10-digit phone. */
function prescribable(patient: Json): boolean {
  const address = patient.address?.[0];
  const phone = (patient.telecom ?? []).find((t: Json) => t.system === 'phone')?.value ?? '';
  return (
    !!patient.name?.[0]?.family &&
    !!patient.name?.[0]?.given?.[0] &&
    !!patient.birthDate &&
    !!address?.line?.[0] &&
    !!address?.city &&
    !!address?.state &&
    /^\d{5}/.test(address?.postalCode ?? '') &&
    phone.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '').length === 10
  );
}

test('alice’s bell counts from the DoseSpot bots and the chart opens the DoseSpot frame; ben sees none of it', async ({
  browser,
}) => {
  const page = await newPage(browser);
  await signInAs(page, alice);
  await saveDoseSpotSecrets(page, [
    { name: 'DOSESPOT_CLINIC_ID', valueString: doseSpotClinic.clinicId },
    { name: 'DOSESPOT_CLINIC_KEY', valueString: doseSpotClinic.clinicKey },
    { name: 'DOSESPOT_SUBSCRIPTION_KEY', valueString: doseSpotClinic.subscriptionKey },
    { name: 'DOSESPOT_BASE_URL', valueString: `${doseSpotOrigin}/` },
  ]);
  try {
    await page.reload();
    const total = Object.values(aliceCounts).reduce((sum, value) => sum + value, 0);
    const bell = page.getByTestId('eprescribing-bell');
    await expect(bell).toHaveAttribute('aria-label', `E-prescribing notifications: ${total}`);
    await expect(page.getByTestId('eprescribing-count')).toContainText(String(total));

    const patients = await api(page, 'GET', 'Patient?_count=100');
    const patient = (patients.entry as Json[]).map((entry) => entry.resource).find(prescribable);
    expect(patient, 'a demo patient with full demographics').toBeTruthy();
    await page.goto(`/Patient/${patient.id}`);
    await page.getByRole('tab', { name: 'DoseSpot' }).click();
    await expect(page).toHaveURL(new RegExp(`/Patient/${patient.id}/dosespot$`));
    const frame = page.getByTestId('eprescribing-frame');
    await expect(frame).toHaveAttribute('src', new RegExp(`^${doseSpotOrigin}/LoginSingleSignOn\\.aspx\\?`));
    // The test server verified the SSO code and user id before answering this page.
    await expect(page.frameLocator('[data-testid="eprescribing-frame"]').locator('h1')).toHaveText(
      'DoseSpot test server',
    );
    const synced = await api(page, 'GET', `Patient/${patient.id}`);
    const doseSpotId = (synced.identifier as Json[]).find((i) => i.system === 'https://dosespot.com/patient-id')?.value;
    expect(doseSpotId).toMatch(/^\d+$/);
    await expect(page.frameLocator('[data-testid="eprescribing-frame"]').locator('p')).toContainText(
      `on patient ${doseSpotId}`,
    );
    await page.screenshot({ path: `${shots}/eprescribing-frame-light.png` });
    await setScheme(page, 'dark');
    await expect(page.frameLocator('[data-testid="eprescribing-frame"]').locator('h1')).toHaveText(
      'DoseSpot test server',
    );
    await page.screenshot({ path: `${shots}/eprescribing-frame-dark.png` });
    await setScheme(page, 'light');

    const front = await newPage(browser);
    await signInAs(front, ben);
    await expect(front.getByRole('link', { name: 'Tasks' }).first()).toBeVisible();
    await expect(front.getByTestId('eprescribing-bell')).toHaveCount(0);
    await front.goto(`/Patient/${patient.id}`);
    await expect(front.getByRole('tab', { name: 'Communications' })).toBeVisible();
    await expect(front.getByRole('tab', { name: 'DoseSpot' })).toHaveCount(0);
    await front.goto(`/Patient/${patient.id}/dosespot`);
    await expect(front.getByTestId('eprescribing-frame')).toHaveCount(0);
    await front.goto('/dosespot');
    await expect(front.getByTestId('eprescribing-frame')).toHaveCount(0);
  } finally {
    await saveDoseSpotSecrets(page, []);
  }
});
