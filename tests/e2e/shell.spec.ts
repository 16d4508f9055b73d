import { expect, test, type Page } from '@playwright/test';
import { injectAxe } from './axeInjection';
import { main, signInAs } from './consoleSupport';

const demoPassword = 'e2e-demo-password';
const screenshots = 'docs/screenshots';

function collectErrors(page: Page): string[] {
  const messages: string[] = [];
  page.on('console', (message) => {
    // Refused requests (a wrong password, an aborted call) are logged by the browser by design.
    if (message.type() === 'error' && !/Failed to load resource|ERR_FAILED/.test(message.text()))
      messages.push(message.text());
  });
  page.on('pageerror', (error) => messages.push(error.message));
  return messages;
}

async function fillSignIn(page: Page, email: string, password = demoPassword): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function signIn(page: Page, email: string, password = demoPassword): Promise<void> {
  await signInAs(page, email, password);
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
}

async function openUserMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: /User menu/ }).click();
  await expect(page.getByRole('menu')).toBeVisible();
}

/** The active login's access token and profile, for calls "made elsewhere" through the API. */
async function activeLogin(page: Page): Promise<{ token: string; profile: string }> {
  return page.evaluate(() => {
    const login = JSON.parse(localStorage.getItem('hearth.activeLogin') ?? 'null') as {
      accessToken: string;
      profile?: { reference?: string };
    } | null;
    if (!login) throw new Error('No active login');
    return { token: login.accessToken, profile: login.profile?.reference ?? '' };
  });
}

test.describe('application shell', () => {
  test('signed-out paths redirect to /signin with next, and sign-in returns there', async ({ page }) => {
    const errors = collectErrors(page);
    await page.goto('/Task?status=ready');
    await expect(page).toHaveURL(/\/signin\?next=%2FTask%3Fstatus%3Dready$/);
    await fillSignIn(page, 'alice@demo.hearth.example');
    await expect(page).toHaveURL(/\/Task\?status=ready$/, { timeout: 15_000 });
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
    expect(errors).toEqual([]);
  });

  test('header, navigation, live counts, screenshots and accessibility in light and dark', async ({ page }) => {
    const errors = collectErrors(page);
    await signIn(page, 'alice@demo.hearth.example');
    const header = page.getByRole('banner');
    await expect(header).toHaveCSS('height', '60px');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav).toHaveCSS('width', '250px');
    for (const name of [
      'Patients',
      'New Appointment',
      'Appointment Requests',
      'Upcoming Appointments',
      'New Patient',
    ]) {
      await expect(nav.getByRole('link', { name })).toBeVisible();
    }
    await expect(page.getByRole('link', { name: /^Mail: \d+$/ })).toBeVisible();
    await expect(page.getByRole('link', { name: /^Tasks: \d+$/ })).toBeVisible();
    // Alice's membership has a DoseSpot clinician id: the e-prescribing bell shows.
    await expect(page.getByRole('link', { name: /E-prescribing notifications/ })).toHaveAttribute('href', '/dosespot');

    await nav.getByRole('link', { name: 'Upcoming Appointments' }).click();
    await expect(page).toHaveURL(/\/Appointment\?status=booked&_sort=date&_count=20$/);
    await expect(nav.getByRole('link', { name: 'Upcoming Appointments' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: 'Appointment Requests' })).not.toHaveAttribute('aria-current', 'page');

    await page.goto('/');
    await expect(nav).toBeVisible();
    await expect(page.locator('table tbody tr').first()).toBeVisible();
    await page.screenshot({ path: `${screenshots}/shell-light.png` });
    await checkAccessibility(page);

    await openUserMenu(page);
    await expect(page.getByText('Demo Clinic', { exact: true })).toBeVisible();
    await expect(page.getByText(/^Hearth EMR v\d+\.\d+\.\d+$/)).toBeVisible();
    await page.screenshot({ path: `${screenshots}/shell-user-menu-light.png` });
    await page.getByRole('button', { name: 'Dark' }).click();
    // Gone, not fading out (a fading menu would spoil the screenshot and the contrast check).
    await expect(page.locator('#user-menu')).toHaveCount(0);
    await expect.poll(() => bodyIsDark(page)).toBe(true);
    await page.screenshot({ path: `${screenshots}/shell-dark.png` });
    await checkAccessibility(page);

    // The choice survives a reload; 'Light' brings the light scheme back.
    await page.reload();
    await expect(nav).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('colorScheme'))).toBe('dark');
    await expect.poll(() => bodyIsDark(page)).toBe(true);
    await openUserMenu(page);
    await page.getByRole('button', { name: 'Light' }).click();
    await expect.poll(() => bodyIsDark(page)).toBe(false);
    expect(errors).toEqual([]);
  });

  test('the navbar state is remembered on wide windows; below md it is a drawer a link closes', async ({ page }) => {
    await signIn(page, 'alice@demo.hearth.example');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await page.getByRole('button', { name: 'Hide navigation' }).click();
    await expect(nav).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem('navbarOpen'))).toBe('false');
    await page.reload();
    await expect(page.getByRole('button', { name: 'Show navigation' })).toBeVisible();
    await expect(nav).toBeHidden();
    await page.getByRole('button', { name: 'Show navigation' }).click();
    await expect(nav).toBeVisible();

    // Below md (900 px) the navigation is an overlay drawer: closed whatever the wide choice, opened
    // by the header button, closed by choosing a link.
    await page.setViewportSize({ width: 700, height: 800 });
    await expect(nav).toBeHidden();
    const menuButton = page.getByRole('button', { name: 'Show navigation' });
    await menuButton.click();
    await nav.getByRole('link', { name: 'New Patient' }).click();
    await expect(page).toHaveURL(/\/onboarding$/);
    await expect(nav).toBeHidden();
    // (The focus goes back to the button, unless the new page puts it on its own first field, as this form does.)
    await expect(page.getByRole('heading', { name: 'New Patient' })).toBeVisible();
    // The phone's drawer leaves the wide layout's choice alone.
    expect(await page.evaluate(() => localStorage.getItem('navbarOpen'))).toBe('true');
  });

  test('on a phone the drawer is closed on every direct address, Escape closes it, nothing scrolls sideways', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    // Not signIn(): it waits for the navigation column, which a phone does not show.
    await signInAs(page, 'alice@demo.hearth.example');
    await expect(page.getByRole('banner')).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    const menuButton = page.getByRole('button', { name: 'Show navigation' });
    await page.goto('/Patient');
    // The list starts at the left edge: no navigation column beside it (its columns may scroll inside it).
    const table = main(page).getByRole('table').first();
    await expect(table).toBeVisible();
    expect((await table.boundingBox())?.x ?? 999).toBeLessThan(40);
    await expect(nav).toBeHidden();
    await menuButton.click();
    await expect(page.getByRole('dialog', { name: 'Navigation menu' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(nav).toBeHidden();
    await expect(menuButton).toBeFocused();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  test('global search finds a patient by name and opens it with the keyboard', async ({ page }) => {
    const errors = collectErrors(page);
    await signIn(page, 'alice@demo.hearth.example');
    const { token } = await activeLogin(page);
    const patients = await page.request.get('/fhir/R4/Patient?_count=1&_sort=_lastUpdated', {
      headers: { Authorization: `Bearer ${token}` },
    });
    const patient = ((await patients.json()) as { entry: { resource: { id: string; name: { family: string }[] } }[] })
      .entry[0].resource;
    const family = patient.name[0].family;
    const search = page.getByRole('combobox', { name: 'Search patients and service requests' });
    await search.fill(family.slice(0, 4));
    const option = page.getByRole('option').filter({ hasText: family }).first();
    await expect(option).toBeVisible();
    expect(await page.getByRole('option').count()).toBeLessThanOrEqual(5);
    await page.screenshot({ path: `${screenshots}/shell-search-light.png` });
    await search.press('ArrowDown');
    await search.press('Enter');
    await expect(page).toHaveURL(/\/Patient\/[0-9a-f-]+/);

    // An id opens its resource directly.
    await search.fill(patient.id);
    await expect(page.getByRole('option')).toHaveCount(1);
    await search.press('ArrowDown');
    await search.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/Patient/${patient.id}`));

    await search.fill('zzzz-no-such-name');
    await expect(page.getByText('Nothing found')).toBeVisible();
    expect(errors).toEqual([]);
  });

  test('adds a bookmark to a menu of the user configuration', async ({ page }) => {
    const bookmark = `Ready tasks ${Date.now()}`;
    await signIn(page, 'alice@demo.hearth.example');
    await page.goto('/Task?status=ready');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await nav.getByRole('button', { name: 'Add Bookmark' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Bookmark' });
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect(dialog.getByText('Menu option is required')).toBeVisible();
    await expect(dialog.getByText('Bookmark name is required')).toBeVisible();
    await dialog.getByRole('combobox', { name: /Menu option/ }).click();
    await page.getByRole('option', { name: 'Charts' }).click();
    await dialog.getByLabel(/Bookmark name/).fill(bookmark);
    await dialog.getByRole('button', { name: 'OK' }).click();
    await expect(page.getByText('Success')).toBeVisible();
    await expect(dialog).toBeHidden();
    const link = nav.getByRole('link', { name: bookmark });
    await expect(link).toHaveAttribute('href', '/Task?status=ready');
    // Saved on the server: still there after a reload, beside the default links.
    await page.reload();
    await expect(link).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Patients' })).toBeVisible();
  });

  test('menus grow into place, or appear at once when the system asks for reduced motion', async ({ page }) => {
    await signIn(page, 'alice@demo.hearth.example');
    const menuTransition = async () => {
      await openUserMenu(page);
      const duration = await page
        .getByRole('menu')
        .evaluate((menu) => getComputedStyle(menu.closest('.MuiPaper-root') ?? menu).transitionDuration);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('menu')).toHaveCount(0);
      return duration;
    };
    // The project's browser setting (playwright.config.ts).
    expect(await menuTransition()).toMatch(/^0s(, 0s)*$/);
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    expect(await menuTransition()).not.toMatch(/^0s(, 0s)*$/);
  });

  test('switches between signed-in accounts and signs out', async ({ page }) => {
    await signIn(page, 'alice@demo.hearth.example');
    await openUserMenu(page);
    await page.getByRole('menuitem', { name: 'Add another account' }).click();
    await expect(page).toHaveURL(/\/signin$/);
    await fillSignIn(page, 'ben@demo.hearth.example');
    await expect(page.getByRole('button', { name: /User menu: Ben/ })).toBeVisible({ timeout: 15_000 });

    await openUserMenu(page);
    // The other login is named by its profile and project.
    const other = page.getByRole('menuitem', { name: /Alice Carter — Demo Clinic.*Switch to this account/ });
    await expect(other).toHaveCount(1);
    await other.click();
    await expect(page.getByRole('button', { name: /User menu: Alice/ })).toBeVisible();

    await openUserMenu(page);
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/signin$/);
    // Ben's login is still on this device, but Alice's session has ended.
    await page.goto('/Task');
    await expect(page).toHaveURL(/\/signin\?next=%2FTask$/);
  });

  test('account settings: password errors under the field, MFA QR code, active sessions', async ({ page }) => {
    const errors = collectErrors(page);
    await signIn(page, 'alice@demo.hearth.example');
    await openUserMenu(page);
    await page.getByRole('menuitem', { name: 'Password and security' }).click();
    await expect(page).toHaveURL(/\/security$/);
    await expect(page.getByRole('heading', { name: 'Password and security' })).toBeVisible();
    await page.getByLabel('Current password').fill('not-the-password');
    await page.getByLabel('New password', { exact: false }).first().fill('another-long-password');
    await page.getByLabel('Confirm new password').fill('another-long-password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Incorrect password')).toBeVisible();
    await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
    await expect(page.getByText('This session')).toBeVisible();
    await page.screenshot({ path: `${screenshots}/account-settings-light.png` });
    await checkAccessibility(page);
    expect(errors).toEqual([]);
  });

  test('the live task count follows a task assigned elsewhere', async ({ page }) => {
    await signIn(page, 'alice@demo.hearth.example');
    const tasks = page.getByRole('link', { name: /^Tasks: \d+$/ });
    // Bound to the realtime socket: from now on a change is notified.
    await expect(tasks).toHaveAttribute('data-live', 'true', { timeout: 15_000 });
    const before = Number((await tasks.getAttribute('aria-label'))?.split(': ')[1]);
    const { token, profile } = await activeLogin(page);
    expect(profile).toMatch(/^Practitioner\//);
    const created = await page.request.post('/fhir/R4/Task', {
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/fhir+json' },
      data: { resourceType: 'Task', status: 'requested', intent: 'order', owner: { reference: profile } },
    });
    expect(created.status()).toBe(201);
    await expect(page.getByRole('link', { name: `Tasks: ${before + 1}` })).toBeVisible({ timeout: 15_000 });
  });

  test('a persistent red toast says when the server does not answer', async ({ page }) => {
    await signIn(page, 'alice@demo.hearth.example');
    await page.route('**/fhir/R4/**', (route) => route.abort('connectionrefused'));
    await page.getByRole('combobox', { name: 'Search patients and service requests' }).fill('anyone');
    const toast = page.getByText('No connection to server');
    await expect(toast).toBeVisible({ timeout: 15_000 });
    await page.screenshot({ path: `${screenshots}/shell-offline-light.png` });
    // Persistent: still there well after the 4 s of ordinary toasts, and shown once.
    await page.waitForTimeout(4500);
    await expect(toast).toHaveCount(1);
    // Back online: the notice goes by itself and says so.
    await page.unroute('**/fhir/R4/**');
    await page.context().setOffline(true);
    await page.context().setOffline(false);
    await expect(page.getByText('Connection restored')).toBeVisible();
    await expect(toast).toHaveCount(0);
  });
});

async function bodyIsDark(page: Page): Promise<boolean> {
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const channels = (background.match(/\d+/g) ?? []).slice(0, 3).map(Number);
  return channels.every((channel) => channel < 80);
}

async function checkAccessibility(page: Page): Promise<void> {
  await injectAxe(page);
  const violations = await page.evaluate(async () => {
    const result = await (
      window as unknown as {
        axe: {
          run: () => Promise<{
            violations: { id: string; impact: string; nodes: { target: string[]; html: string }[] }[];
          }>;
        };
      }
    ).axe.run();
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.html.slice(0, 200)).join(', ')}`);
  });
  expect(violations).toEqual([]);
}
