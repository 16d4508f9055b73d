import { expect, test, type Page } from '@playwright/test';

const screenshots = 'test-results/screenshots';

function collectConsoleErrors(page: Page): string[] {
  const messages: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') messages.push(message.text());
  });
  page.on('pageerror', (error) => messages.push(error.message));
  return messages;
}

test.describe('the first screen: Demo Clinic patients', () => {
  test('lists the seeded patients from the server and opens one', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await page.goto('/');
    await expect(page).toHaveTitle('Hearth EMR');
    const rows = page.locator('table tbody tr');
    await expect(rows).toHaveCount(6);
    const firstName = (await rows.first().locator('td').first().innerText()).trim();
    expect(firstName).toMatch(/^[A-Z][a-z]+\d* [A-Z][a-z]+\d*/);
    await expect(page.getByText('1-6 of 6')).toBeVisible();
    await page.screenshot({ path: `${screenshots}/patients-light.png`, fullPage: true });

    await rows.first().click();
    await expect(page).toHaveURL(/#\/Patient\/[0-9a-f-]+\/show$/);
    await expect(page.getByText(firstName.split(' ')[0], { exact: false }).first()).toBeVisible();
    await expect(page.getByText('Birth date')).toBeVisible();
    await page.screenshot({ path: `${screenshots}/patient-light.png`, fullPage: true });
    expect(errors).toEqual([]);
  });

  test('renders in dark mode', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await page.addInitScript(() => localStorage.setItem('RaStore.theme', JSON.stringify('dark')));
    await page.goto('/');
    await expect(page.locator('table tbody tr')).toHaveCount(6);
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    // A dark background: every channel well below mid-grey.
    const channels = (background.match(/\d+/g) ?? []).slice(0, 3).map(Number);
    expect(channels.every((c) => c < 80)).toBe(true);
    await page.screenshot({ path: `${screenshots}/patients-dark.png`, fullPage: true });
    expect(errors).toEqual([]);
  });

  test('answers unknown client routes with the app, and unknown API paths with an OperationOutcome', async ({
    page,
    request,
  }) => {
    const response = await page.goto('/some/client/route');
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle('Hearth EMR');
    const api = await request.get('/fhir/R4/Patient/does-not-exist');
    expect(api.status()).toBe(404);
    expect(await api.json()).toMatchObject({
      resourceType: 'OperationOutcome',
      issue: [{ code: 'not-found', details: { text: 'Not found' } }],
    });
  });
});
