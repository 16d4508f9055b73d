import { expect, test } from '@playwright/test';
import { openPatient, signInAs } from './consoleSupport';
import { collectErrors, demoPassword, expectAccessible, shoot } from './signInSupport';

/**
 * SMART EHR launch from the chart: the clinician picks an app under "Apps", a new tab opens the
 * app with `iss` and `launch`, the app signs in through the server's /oauth page (PKCE) — where the
 * clinician continues as the person already signed in, or signs in with another account — and gets
 * the chart's patient with its token. The app is the demo clinic's SMART launch check
 * (public/smart-launch-check/): real OAuth2, real token, real FHIR reads.
 */

test('a clinician launches a SMART app from the chart; it signs in and receives this patient', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  await signInAs(page, 'alice@demo.hearth.example');
  const patientId = await openPatient(page, /Wendy/);

  const apps = page.getByRole('button', { name: 'Apps' });
  await apps.click();
  const menu = page.getByRole('menu');
  await expect(page.getByRole('menu', { name: 'Launch with this patient' })).toBeVisible();
  const item = menu.getByRole('menuitem', { name: /SMART launch check/ });
  await expect(item).toContainText('Shows what a SMART app receives from the chart');
  await expectAccessible(page);
  await shoot(page, 'chart-apps-menu');

  const [app] = await Promise.all([page.context().waitForEvent('page'), item.click()]);
  await expect(page.getByText('SMART launch check opened in a new tab with this patient')).toBeVisible();
  // The app asked the server to sign the clinician in for it: the server's own page, with PKCE.
  await expect(app.getByText('SMART launch check asks to use your Hearth EMR account')).toBeVisible({
    timeout: 20_000,
  });
  const authorize = new URL(app.url());
  expect(authorize.pathname).toBe('/oauth');
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorize.searchParams.get('launch')).toBeTruthy();
  // It is another app: nothing of the chart's window is reachable from it.
  expect(await app.evaluate(() => window.opener)).toBeNull();

  // Signed in to Hearth EMR in this browser: one click, no password; the consent step follows.
  await expect(app.getByText('Demo Clinic')).toBeVisible();
  await expect(app.getByLabel('Email')).toHaveCount(0);
  await expectAccessible(app);
  await shoot(app, 'oauth-continue-session');
  await app.getByRole('button', { name: /^Continue as .*Alice Carter/ }).click();
  await expect(app.getByRole('heading', { name: 'Choose scope' })).toBeVisible();
  await app.getByRole('button', { name: 'Set scope' }).click();

  await expect(app.getByRole('status')).toHaveText('Launched: this app received the patient below from the chart.', {
    timeout: 20_000,
  });
  const result = app.locator('#result');
  await expect(result).toContainText(`Patient/${patientId}`);
  await expect(result).toContainText('Wendy');
  await expect(result).toContainText('Practitioner/');
  await expect(result).toContainText('patient/*.read');
  // The code is gone from the address bar once used.
  expect(new URL(app.url()).search).toBe('');
  await shoot(app, 'smart-launch-check');
  await app.close();

  // Launched again, with another account: the ordinary sign-in, then the same patient.
  await apps.click();
  const [again] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByRole('menuitem', { name: /SMART launch check/ }).click(),
  ]);
  await again.getByRole('button', { name: 'Use another account' }).click({ timeout: 20_000 });
  await again.getByLabel('Email').fill('alice@demo.hearth.example');
  await again.getByRole('button', { name: 'Next' }).click();
  await again.getByLabel('Password', { exact: false }).first().fill(demoPassword);
  await again.getByRole('button', { name: 'Sign in' }).click();
  await again.getByRole('button', { name: 'Set scope' }).click();
  await expect(again.locator('#result')).toContainText(`Patient/${patientId}`, { timeout: 20_000 });
  await again.close();
  expect(errors).toEqual([]);
});

test('the app refuses an answer it did not start, and a patient’s own chart offers no launch', async ({ page }) => {
  await page.goto('/smart-launch-check/?code=stolen&state=unknown');
  await expect(page.getByRole('status')).toHaveText(
    'This answer belongs to no launch started in this tab; launch the app again from the chart.',
  );
  await page.goto('/smart-launch-check/');
  await expect(page.getByRole('status')).toHaveText(
    "Open this app from a patient's chart in Hearth EMR: Apps → SMART launch check.",
  );

  await signInAs(page, 'patient@demo.hearth.example');
  await page.getByRole('link', { name: 'My record' }).click();
  await expect(page.getByRole('tablist', { name: 'Chart tabs' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Allergies' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Apps' })).toHaveCount(0);
});
