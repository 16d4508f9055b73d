import { expect, test, type Page } from '@playwright/test';

const screenshots = 'test-results/screenshots';
export const demoPassword = 'e2e-demo-password';

function collectConsoleErrors(page: Page): string[] {
  const messages: string[] = [];
  page.on('console', (message) => {
    // A refused sign-in answers 400 by design; the browser logs every failed request.
    if (message.type() === 'error' && !message.text().includes('Failed to load resource'))
      messages.push(message.text());
  });
  page.on('pageerror', (error) => messages.push(error.message));
  return messages;
}

async function signIn(page: Page, email: string, password = demoPassword): Promise<void> {
  await page.goto('/signin');
  await expect(page.getByRole('heading', { name: 'Sign in to Hearth EMR' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The six seeded patients are listed (other specs may have added more to the clinic). */
async function expectSeededPatients(page: Page) {
  await expect.poll(() => page.locator('table tbody tr').count()).toBeGreaterThanOrEqual(6);
}

test.describe('sign-in and the Demo Clinic patients', () => {
  test('a signed-out visitor is sent to the sign-in screen, which explains a wrong password', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await page.goto('/Patient');
    await expect(page).toHaveURL(/\/signin\?next=%2FPatient$/);
    await expect(page.getByRole('heading', { name: 'Sign in to Hearth EMR' })).toBeVisible();
    await page.screenshot({ path: `${screenshots}/signin-light.png`, fullPage: true });
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    await page.getByLabel('Email').fill('alice@demo.hearth.example');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Email or password is invalid')).toBeVisible();
    // The typed password stays for correction.
    await expect(page.getByLabel('Password')).toHaveValue('not the password');
    expect(errors).toEqual([]);
  });

  test('a clinician signs in and sees the seeded patients, then opens one', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await signIn(page, 'alice@demo.hearth.example');
    await expectSeededPatients(page);
    // Other specs add patients to the clinic; the seeded Synthea ones carry a prefix (Mr., Ms.).
    const seeded = page.locator('table tbody tr').filter({ hasText: /^(?:Mr|Ms|Mrs)\. [A-Z][a-z]+\d* [A-Z][a-z]+\d*/ });
    const firstName = (await seeded.first().locator('td').first().innerText()).trim();
    expect(firstName).toMatch(/^(?:Mr|Ms|Mrs)\. [A-Z][a-z]+\d* [A-Z][a-z]+\d*/);
    await page.screenshot({ path: `${screenshots}/patients-light.png`, fullPage: true });
    await seeded.first().click();
    await expect(page).toHaveURL(/\/Patient\/[0-9a-f-]+$/);
    await expect(page.getByText('Birth Date', { exact: true })).toBeVisible();
    await page.screenshot({ path: `${screenshots}/patient-light.png`, fullPage: true });
    expect(errors).toEqual([]);
  });

  test('the super admin chooses between two profiles', async ({ page }) => {
    await signIn(page, 'admin@example.com', 'e2e-admin-password');
    await expect(page.getByRole('heading', { name: 'Choose profile' })).toBeVisible();
    await expect(page.getByRole('button', { name: /Demo Clinic/ })).toBeVisible();
    await page.screenshot({ path: `${screenshots}/choose-profile-light.png`, fullPage: true });
    await page.getByRole('button', { name: /Demo Clinic/ }).click();
    await expectSeededPatients(page);
  });

  test('a patient signed in lands in the portal and sees only their own record', async ({ page }) => {
    await signIn(page, 'patient@demo.hearth.example');
    // The portal replaces the staff shell: their messages are the home page.
    await expect(page.getByRole('navigation', { name: 'Patient portal' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    // The care team's lists are not hers: a calm page and the way back, no console.
    await page.goto('/Patient');
    await expect(page.getByRole('heading', { name: 'This page is for the care team.' })).toBeVisible();
    await expect(page.locator('table')).toHaveCount(0);
    await page.goto('/');

    // "My record": their chart to read, without the care team's tabs and buttons.
    await page.getByRole('link', { name: 'My record' }).click();
    const tabs = page.getByRole('tablist', { name: 'Chart tabs' });
    await expect(tabs.getByRole('tab', { name: 'Timeline' })).toBeVisible();
    await expect(tabs.getByRole('tab', { name: 'Meds' })).toBeVisible();
    for (const staffTab of ['Edit', 'Encounter', 'Tasks', 'Communications'])
      await expect(tabs.getByRole('tab', { name: staffTab, exact: true })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Allergies' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add allergy' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Upload file' })).toHaveCount(0);
    // A care-team tab typed by hand is the care team's page (the Tasks list showed her the staff's tasks).
    const record = page.url().replace(/\/(timeline)?$/, '');
    for (const staffPath of ['encounter', 'Task']) {
      await page.goto(`${record}/${staffPath}`);
      await expect(page.getByRole('heading', { name: 'This page is for the care team.' })).toBeVisible();
      await expect(page.locator('table')).toHaveCount(0);
    }
    await page.goto(record);
    await expect(page.getByRole('heading', { name: 'Allergies' })).toBeVisible();
    await expect(page.getByTestId('timeline').getByRole('article').first()).toBeVisible();
    await page.screenshot({ path: `${screenshots}/portal-record-light.png`, fullPage: true });
  });

  test('renders in dark mode', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await page.addInitScript(() => localStorage.setItem('colorScheme', 'dark'));
    await signIn(page, 'alice@demo.hearth.example');
    await expectSeededPatients(page);
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    // A dark background: every channel well below mid-grey.
    const channels = (background.match(/\d+/g) ?? []).slice(0, 3).map(Number);
    expect(channels.every((c) => c < 80)).toBe(true);
    await page.screenshot({ path: `${screenshots}/patients-dark.png`, fullPage: true });
    expect(errors).toEqual([]);
  });

  test('answers unknown client routes with the app, and API calls without a token with 401', async ({
    page,
    request,
  }) => {
    const response = await page.goto('/some/client/route');
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle('Hearth EMR');
    const api = await request.get('/fhir/R4/Patient');
    expect(api.status()).toBe(401);
    expect(await api.json()).toMatchObject({
      resourceType: 'OperationOutcome',
      issue: [{ code: 'login', details: { text: 'Unauthorized' } }],
    });
    const missing = await request.get('/nothing/here.json');
    expect(missing.status()).toBe(200);
    const unknownApi = await request.get('/auth/unknown');
    expect(unknownApi.status()).toBe(404);
  });
});
