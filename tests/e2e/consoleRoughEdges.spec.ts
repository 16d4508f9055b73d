import { expect, test, type Locator } from '@playwright/test';
import { main, signInAs as signIn } from './consoleSupport';

async function overlap(a: Locator, b: Locator): Promise<boolean> {
  const [boxA, boxB] = [await a.boundingBox(), await b.boundingBox()];
  if (!boxA || !boxB) throw new Error('an element has no box');
  return (
    boxA.x < boxB.x + boxB.width &&
    boxB.x < boxA.x + boxA.width &&
    boxA.y < boxB.y + boxB.height &&
    boxB.y < boxA.y + boxA.height
  );
}

test.describe('console rough edges', () => {
  test('a failed Create leaves its persistent error toast clear of the Create button', async ({ page }) => {
    await signIn(page, 'alice@demo.hearth.example');
    await page.goto('/Observation/new');
    const create = main(page).getByRole('button', { name: 'Create' });
    await create.click();
    // The server refuses an Observation without status and code; the toast stays until closed.
    const toast = page.locator('.notistack-MuiContent-error').first();
    await expect(toast).toBeVisible();
    await page.waitForTimeout(300); // the toast's entry transition
    expect(await overlap(toast, create)).toBe(false);
    // The button can be used again without closing the toast first.
    await create.click({ trial: true });
  });
});

test.describe('console rough edges for the front desk', () => {
  test('a read-only type offers no New, Export or Delete; a forbidden list says its error once; no Subscription 403', async ({
    page,
  }) => {
    const subscriptionPosts: number[] = [];
    page.on('response', (response) => {
      if (response.request().method() === 'POST' && /\/fhir\/R4\/Subscription$/.test(response.url())) {
        subscriptionPosts.push(response.status());
      }
    });
    await signIn(page, 'ben@demo.hearth.example');
    await page.goto('/Practitioner');
    await expect(main(page).getByRole('table', { name: 'Practitioner search results' })).toBeVisible();
    const toolbar = main(page).getByRole('toolbar', { name: 'Search toolbar' });
    await expect(toolbar.getByRole('button', { name: 'Fields' })).toBeVisible();
    await expect(toolbar.getByRole('button', { name: 'New...' })).toHaveCount(0);
    await expect(toolbar.getByRole('button', { name: 'Export...' })).toHaveCount(0);
    await expect(toolbar.getByRole('button', { name: 'Delete...' })).toHaveCount(0);
    // Patients are the front desk's to write.
    await page.goto('/Patient');
    await expect(toolbar.getByRole('button', { name: 'New...' })).toBeVisible();

    await page.goto('/Observation');
    const alert = main(page).getByRole('alert');
    await expect(alert).toBeVisible();
    const message = (await alert.innerText()).trim();
    expect(message.length).toBeGreaterThan(0);
    await page.waitForTimeout(500);
    await expect(page.getByText(message, { exact: true })).toHaveCount(1);
    expect(subscriptionPosts).toEqual([]);
  });
});
