import { expect, test, type Page } from '@playwright/test';
import { openPatient, signInAs } from './consoleSupport';
import { collectErrors, demoPassword, expectAccessible } from './signInSupport';

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
 * the active one): a SMART app launched from Alice's chart offers both on `/oauth`, and continuing
 * as Ben — not the active account — is refused by the token endpoint (the launch is Alice's: its
 * context goes only to her sign-in), while the chart stays Alice's.
 */
test('an app launched from Alice’s chart offers both accounts, and refuses Ben her launch context', async ({
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

  // Only a clinician's chart has the Apps menu: Alice (active) launches, Ben will sign the app in.
  await openPatient(page, /Wendy/);
  await page.getByRole('button', { name: 'Apps' }).click();
  const [app] = await Promise.all([
    page.context().waitForEvent('page'),
    page
      .getByRole('menu')
      .getByRole('menuitem', { name: /SMART launch check/ })
      .click(),
  ]);

  // Both accounts, the active one first, each with its project; no credentials asked.
  const accounts = app.getByRole('list', { name: 'Accounts signed in in this browser' });
  await expect(accounts).toBeVisible({ timeout: 20_000 });
  const cards = accounts.getByRole('listitem');
  await expect(cards).toHaveCount(2);
  await expect(cards.first()).toContainText('Alice Carter');
  await expect(cards.first()).toContainText('In use in Hearth EMR');
  await expect(cards.nth(1)).toContainText('Ben Okafor');
  await expect(cards.nth(1)).toContainText('Demo Clinic');
  await expect(cards.nth(1)).toContainText('ben@demo.hearth.example');
  await expect(cards.nth(1)).not.toContainText('In use in Hearth EMR');
  await expect(app.getByLabel('Email')).toHaveCount(0);
  await expectAccessible(app);

  await app.getByRole('button', { name: /^Continue as .*Ben Okafor, Demo Clinic$/ }).click();
  await expect(app.getByRole('heading', { name: 'Choose scope' })).toBeVisible();
  // The app exchanges its code itself: its token answer says whose it is.
  const tokenAnswer = app.waitForResponse(
    (response) => new URL(response.url()).pathname === '/oauth2/token' && response.request().method() === 'POST',
  );
  await app.getByRole('button', { name: 'Set scope' }).click();
  // The launch is Alice's: its patient and encounter are given only to her sign-in (an EHR launch is
  // tied to who started it), so the token endpoint refuses Ben's and tells him why — no context leaks.
  const answer = await tokenAnswer;
  expect(answer.status()).toBe(400);
  const refusal = (await answer.json()) as { error?: string; error_description?: string; patient?: string };
  expect(refusal.error).toBe('invalid_request');
  expect(refusal.error_description).toMatch(/started by someone else/);
  expect(refusal.patient).toBeUndefined();
  await app.close();

  // The chart is still Alice's: continuing as Ben switched no account.
  expect((await storedLogins(page)).active).toBe(alice);
  await page.reload();
  await expect(page.getByRole('button', { name: /User menu: Alice/ })).toBeVisible();
  expect((await storedLogins(page)).all.sort()).toEqual([alice, ben].sort());
  expect(errors).toEqual([]);
});
