import { expect, test, type Page } from '@playwright/test';
import { openPatient, signInAs } from './consoleSupport';
import { base, collectErrors, demoPassword, expectAccessible, pkcePair } from './signInSupport';

/** The logins the web app keeps in this browser: the active one's profile, and every profile in the list. */
async function storedLogins(page: Page): Promise<{ active?: string; all: string[] }> {
  return page.evaluate(() => {
    type Stored = { profile?: { reference?: string } };
    const active = JSON.parse(localStorage.getItem('hearth.activeLogin') ?? 'null') as Stored | null;
    const all = JSON.parse(localStorage.getItem('hearth.logins') ?? '[]') as Stored[];
    return { active: active?.profile?.reference, all: all.map((login) => login.profile?.reference ?? '') };
  });
}

/**
 * Two accounts signed in in one browser (Ben, then Alice added from the account menu, so Alice is
 * the active one): a SMART app launched from Alice's chart offers on `/oauth` only Alice — the
 * launch is hers, and the token endpoint gives its context to her sign-in alone — and says why Ben
 * is not offered. Before, Ben was offered too and refused by the token endpoint after the click.
 * (That refusal still holds when Ben's session tries anyway: server/auth/launchAvailability.test.ts.)
 * A sign-in of the same app without a launch then offers both; continuing as Ben gives the app Ben's
 * token (redeemed only with its redirect_uri), and the chart stays Alice's.
 */
test('an app launched from Alice’s chart offers only Alice, says why not Ben; without a launch both are offered', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  await signInAs(page, 'ben@demo.hearth.example');
  const ben = (await storedLogins(page)).active;
  expect(ben).toMatch(/^Practitioner\//);

  await page.getByRole('button', { name: /User menu/ }).click();
  await page.getByRole('menuitem', { name: 'Add another account' }).click();
  await expect(page).toHaveURL(/\/signin$/);
  await page.getByLabel('Email').fill('alice@demo.hearth.example');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(demoPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: /User menu: Alice/ })).toBeVisible({ timeout: 15_000 });
  const alice = (await storedLogins(page)).active;
  expect(alice).toMatch(/^Practitioner\//);
  expect(alice).not.toBe(ben);

  // Only a clinician's chart has the Apps menu: Alice (active) launches.
  const patientId = await openPatient(page, /Wendy/);
  await page.getByRole('button', { name: 'Apps' }).click();
  const [app] = await Promise.all([
    page.context().waitForEvent('page'),
    page
      .getByRole('menu')
      .getByRole('menuitem', { name: /SMART launch check/ })
      .click(),
  ]);

  // Only Alice, who started the launch; Ben is named with the reason; no credentials asked.
  const accounts = app.getByRole('list', { name: 'Accounts signed in in this browser' });
  await expect(accounts).toBeVisible({ timeout: 20_000 });
  const asked = new URL(app.url()).searchParams;
  expect(asked.get('launch')).toBeTruthy();
  const appRequest = { clientId: asked.get('client_id') as string, redirectUri: asked.get('redirect_uri') as string };
  const cards = accounts.getByRole('listitem');
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('Alice Carter');
  await expect(cards.first()).toContainText('In use in Hearth EMR');
  await expect(app.getByRole('button', { name: /Continue as .*Ben Okafor/ })).toHaveCount(0);
  await expect(app.getByRole('status')).toHaveText(
    'Ben Okafor (Demo Clinic) is not offered: SMART launch check was launched from another account, and only the account that launched it can continue.',
  );
  await expect(app.getByLabel('Email')).toHaveCount(0);
  await expectAccessible(app);

  await app.getByRole('button', { name: /^Continue as .*Alice Carter/ }).click();
  await expect(app.getByRole('heading', { name: 'Choose scope' })).toBeVisible();
  await app.getByRole('button', { name: 'Set scope' }).click();
  await expect(app.locator('#result')).toContainText(`Patient/${patientId}`, { timeout: 20_000 });
  await app.close();

  // The same app signing in on its own (no launch, through /oauth2/authorize): both accounts are
  // offered, the active one first; continuing as Ben gives the app Ben's token, redeemed only with
  // the redirect_uri its authorization request named.
  const { clientId, redirectUri } = appRequest;
  const standalone = await page.context().newPage();
  // The app's own page would start a sign-in of its own: here the test is the app.
  await standalone.route(`${redirectUri}**`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<title>App</title><p>Back in the app</p>' }),
  );
  const { verifier, challenge } = pkcePair();
  const authorize = new URL('oauth2/authorize', base);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: 'openid profile',
    state: 'standalone-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  await standalone.goto(authorize.toString());
  const both = standalone.getByRole('list', { name: 'Accounts signed in in this browser' }).getByRole('listitem');
  await expect(both).toHaveCount(2, { timeout: 20_000 });
  await expect(both.first()).toContainText('Alice Carter');
  await expect(both.first()).toContainText('In use in Hearth EMR');
  await expect(both.nth(1)).toContainText('Ben Okafor');
  await expect(both.nth(1)).toContainText('Demo Clinic');
  await expect(both.nth(1)).toContainText('ben@demo.hearth.example');
  await expect(standalone.getByRole('status')).toHaveCount(0);
  await standalone.getByRole('button', { name: /^Continue as .*Ben Okafor, Demo Clinic$/ }).click();
  await expect(standalone).toHaveURL(/[?&]code=[^&]+&state=standalone-1$/, { timeout: 20_000 });
  const code = new URL(standalone.url()).searchParams.get('code') as string;
  await standalone.close();
  const redeem = (extra: Record<string, string>) =>
    fetch(new URL('oauth2/token', base), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        client_id: clientId,
        ...extra,
      }),
    });
  // Without the redirect_uri the code was sent to, it is refused (and stays usable by the app).
  expect((await redeem({})).status).toBe(400);
  const tokens = (await (await redeem({ redirect_uri: redirectUri })).json()) as { profile?: { reference?: string } };
  expect(tokens.profile?.reference).toBe(ben);

  // The chart is still Alice's.
  expect((await storedLogins(page)).active).toBe(alice);
  await page.reload();
  await expect(page.getByRole('button', { name: /User menu: Alice/ })).toBeVisible();
  expect((await storedLogins(page)).all.sort()).toEqual([alice, ben].sort());
  expect(errors).toEqual([]);
});
