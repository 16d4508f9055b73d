import { expect, test, type Page } from '@playwright/test';
import { LOGIN_STORAGE_KEYS } from '../../data-provider/client/loginStore';
import { main, signInAs } from './consoleSupport';

/**
 * Two tabs of the web app share the stored login, so their access tokens expire together and both
 * renew at once. A refresh token is good for one renewal and the server ends the login of whoever
 * presents a spent one, so without coordination the second tab's renewal signed both tabs out
 * (data-provider/client/accountRenewalLock.ts). The browser's clock is moved forward by the hour
 * the token lasts; the server's is not, so the renewals are real.
 */

const storedAccessToken = (page: Page) =>
  page.evaluate(
    (key) => (JSON.parse(localStorage.getItem(key) ?? '{}') as { accessToken?: string }).accessToken,
    LOGIN_STORAGE_KEYS.activeLogin,
  );

test('two tabs whose tokens expire together both stay signed in', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    await context.clock.install();
    const first = await context.newPage();
    await signInAs(first, 'alice@demo.hearth.example');
    const second = await context.newPage();
    await second.goto('/');
    await expect(second.getByRole('banner')).toBeVisible();
    await expect(main(second).getByRole('row').nth(1)).toBeVisible();
    const before = await storedAccessToken(first);
    const renewals: string[] = [];
    for (const page of [first, second]) {
      page.on('request', (request) => {
        if (request.url().endsWith('/oauth2/token')) renewals.push(request.postData() ?? '');
      });
    }

    // 56 minutes on: within the client's 5-minute grace before the hour's expiry. Both tabs then
    // search at the same moment, and each renews before its call.
    await context.clock.fastForward('56:00');
    await Promise.all(
      [first, second].map((page) =>
        page.getByRole('combobox', { name: 'Search patients and service requests' }).fill('Wen'),
      ),
    );
    await expect.poll(() => storedAccessToken(first), { timeout: 20_000 }).not.toBe(before);
    for (const page of [first, second]) {
      // Still signed in, on the new tokens: each tab loads its page and the patient list without a reload.
      await expect(page).not.toHaveURL(/\/signin/);
      await page.getByRole('link', { name: 'Patients' }).click();
      await expect(main(page).getByRole('row').nth(1)).toBeVisible();
      await expect(page).not.toHaveURL(/\/signin/);
    }
    // No refresh token was presented twice (that is what ended the session for both tabs). There may
    // be several renewals: the tokens the server issues expire an hour after its own clock, which
    // to these fast-forwarded pages is already within the grace period again.
    const presented = renewals
      .map((form) => new URLSearchParams(form))
      .filter((form) => form.get('grant_type') === 'refresh_token')
      .map((form) => form.get('refresh_token'));
    expect(presented.length).toBeGreaterThan(0);
    expect(new Set(presented).size).toBe(presented.length);
    const status = await first.evaluate(
      async (token) => {
        const response = await fetch('/fhir/R4/Patient?_count=1', { headers: { authorization: `Bearer ${token}` } });
        return response.status;
      },
      await storedAccessToken(first),
    );
    expect(status).toBe(200);
  } finally {
    await context.close();
  }
});
