import { expect, test, type Page } from '@playwright/test';
import { totpCode } from '../../server/auth/totp';
import { identityProviderFor, startOidcProvider } from '../integration/oidcProvider';
import {
  adminEmail,
  adminPassword,
  adminTokens,
  base,
  collectErrors,
  demoPassword,
  expectAccessible,
  freshEmail,
  getJson,
  pkcePair,
  postJson,
  registerAccount,
  resetLinkFor,
  shoot,
  signIn,
} from './signInSupport';

// Every branch of the sign-in flow (issue 8) in Chromium against the real server with the demo seed.

const alice = 'alice@demo.hearth.example';

async function typeEmail(page: Page, email: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Next' }).click();
}

async function typePassword(page: Page, password: string): Promise<void> {
  await page.getByLabel('Password', { exact: false }).first().fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function expectSignedIn(page: Page): Promise<void> {
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible({ timeout: 20_000 });
  await expect(page).not.toHaveURL(/\/signin|\/register|\/oauth/);
}

/**
 * A third-party app registered by alice (redirect URI on `host`, answered by Playwright), and the
 * browser sent to `/oauth2/authorize` for it with a fresh PKCE pair, as the app would send it.
 */
async function authorizeThirdPartyApp(
  page: Page,
  app: { name: string; host: string; scope: string; state: string },
): Promise<{ clientId: string; verifier: string; redirectUri: string }> {
  const aliceTokens = await signIn(base, alice, demoPassword);
  // Redirect URIs are https (http only on loopback).
  const redirectUri = `https://${app.host}/callback`;
  const created = await postJson(
    'fhir/R4/ClientApplication',
    { resourceType: 'ClientApplication', name: app.name, redirectUri },
    aliceTokens.access_token,
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await page.route(`https://${app.host}/**`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<title>App</title><p>Back in the app</p>' }),
  );
  const { verifier, challenge } = pkcePair();
  const authorize = new URL('oauth2/authorize', base);
  for (const [key, value] of Object.entries({
    response_type: 'code',
    client_id: created.body.id as string,
    redirect_uri: redirectUri,
    scope: app.scope,
    aud: new URL('fhir/R4', base).toString(),
    state: app.state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }))
    authorize.searchParams.set(key, value);
  await page.goto(authorize.toString());
  return { clientId: created.body.id as string, verifier, redirectUri };
}

/**
 * The app's own token request: its client id, and the redirect_uri its authorization request named
 * (RFC 6749 §4.1.3: the code is redeemed only with it).
 */
async function appTokens(app: { clientId: string; verifier: string; redirectUri: string }, code: string) {
  const response = await fetch(new URL('oauth2/token', base), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      code_verifier: app.verifier,
      client_id: app.clientId,
      redirect_uri: app.redirectUri,
    }),
  });
  const body = (await response.json()) as Record<string, string>;
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body;
}

test.describe('sign-in', () => {
  test('a signed-out deep link goes to /signin and back after sign-in; a wrong password is explained under the field', async ({
    page,
  }) => {
    const errors = collectErrors(page);
    await page.goto('/Patient?_count=20');
    await expect(page).toHaveURL(/\/signin\?next=%2FPatient%3F_count%3D20$/);
    await expect(page.getByRole('heading', { name: 'Sign in to Hearth EMR' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'Hearth EMR' })).toBeVisible();
    const dialogWidth = await page.getByRole('main').evaluate((el) => el.getBoundingClientRect().width);
    expect(dialogWidth).toBe(450);
    await expect(page.getByRole('link', { name: 'Register' })).toBeVisible();
    await shoot(page, 'signin-email');
    await expectAccessible(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page);
    await page.emulateMedia({ colorScheme: 'light' });

    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    await typeEmail(page, alice);
    await expect(page.getByLabel('Remember me')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Forgot password' })).toBeVisible();
    await shoot(page, 'signin-password');
    await expectAccessible(page);
    await typePassword(page, 'not the password');
    const password = page.getByLabel('Password', { exact: false }).first();
    await expect(page.getByText('Email or password is invalid')).toBeVisible();
    await expect(password).toHaveAttribute('aria-invalid', 'true');
    await expect(password).toHaveValue('not the password');
    await shoot(page, 'signin-wrong-password');
    await expectAccessible(page);

    await typePassword(page, demoPassword);
    await expectSignedIn(page);
    await expect(page).toHaveURL(/\/Patient\?_count=20$/);
    expect(errors).toEqual([]);
  });

  test('repeated failures lock the account: the 429 message is shown', async ({ page }) => {
    const email = freshEmail('locked');
    await registerAccount(email, 'the right password', 'Lock Clinic');
    const { challenge } = pkcePair();
    let last = 0;
    for (let i = 0; i < 10; i++) {
      last = (
        await postJson('auth/login', {
          email,
          password: `wrong ${i}`,
          codeChallenge: challenge,
          codeChallengeMethod: 'S256',
        })
      ).status;
    }
    expect(last).toBe(400);
    await page.goto('/signin');
    await typeEmail(page, email);
    // Even the right password is refused while the account is locked.
    await typePassword(page, 'the right password');
    await expect(page.getByRole('alert')).toContainText(
      /Too many failed sign-in attempts\. Try again in 1[45] minutes\./,
    );
    await shoot(page, 'signin-locked');
  });

  test('MFA: a TOTP secret enrolled through the API; a wrong code shows Error, the right one signs in', async ({
    page,
  }) => {
    const email = freshEmail('mfa');
    const tokens = await registerAccount(email, 'mfa user password', 'MFA Clinic');
    const status = await getJson('auth/mfa/status', tokens!.access_token);
    const secret = new URL(status.enrollUri as string).searchParams.get('secret') as string;
    const enrolled = await postJson('auth/mfa/enroll', { token: totpCode(secret) }, tokens!.access_token);
    expect(enrolled.body).toEqual({ enrolled: true });

    await page.goto('/signin');
    await typeEmail(page, email);
    await typePassword(page, 'mfa user password');
    await expect(page.getByRole('button', { name: 'Submit code' })).toBeVisible();
    const wrong = totpCode(secret) === '000000' ? '111111' : '000000';
    await page.getByLabel('MFA code').fill(wrong);
    await page.getByRole('button', { name: 'Submit code' }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Error');
    await expect(alert).toContainText('Invalid MFA code');
    await shoot(page, 'signin-mfa-error');
    await expectAccessible(page);
    // The next step's code: the one that enrolled is used up (a code is accepted once).
    await page.getByLabel('MFA code').fill(totpCode(secret, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Submit code' }).click();
    await expectSignedIn(page);
  });

  test('several profiles: the super admin searches and chooses the Demo Clinic', async ({ page }) => {
    await page.goto('/signin');
    await typeEmail(page, adminEmail);
    await typePassword(page, adminPassword);
    await expect(page.getByRole('heading', { name: 'Choose profile' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Profiles' }).getByRole('button')).toHaveCount(2);
    await shoot(page, 'signin-choose-profile');
    await expectAccessible(page);
    await page.getByLabel('Search').fill('no such clinic');
    await expect(page.getByText('Nothing found...')).toBeVisible();
    await page.getByLabel('Search').fill('demo');
    await expect(page.getByRole('list', { name: 'Profiles' }).getByRole('button')).toHaveCount(1);
    await page.getByRole('button', { name: /Demo Clinic/ }).click();
    await expectSignedIn(page);
    const project = await page.evaluate(
      () => JSON.parse(localStorage.getItem('hearth.activeLogin') ?? '{}') as { project?: { reference?: string } },
    );
    expect(project.project?.reference).toMatch(/^Project\//);
  });

  test('register: a new account and its project, errors under the fields, then signed in', async ({ page }) => {
    const email = freshEmail('register');
    await page.goto('/signin');
    await page.getByRole('link', { name: 'Register' }).click();
    await expect(page).toHaveURL(/\/register$/);
    await expect(page.getByRole('heading', { name: 'Register for Hearth EMR' })).toBeVisible();
    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('short');
    await page.getByLabel('Project Name').fill('Hopper Clinic');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
    await shoot(page, 'register-error');
    await expectAccessible(page);
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expectSignedIn(page);
    // The new account can sign in again and is the administrator of its project.
    const tokens = await signIn(base, email, 'a long enough password');
    const me = await getJson('auth/me', tokens.access_token);
    expect((me.project as { name: string }).name).toBe('Hopper Clinic');
    expect((me.membership as { admin?: boolean }).admin).toBe(true);
  });

  test('an account without a project creates one at sign-in (Project Name required)', async ({ page }) => {
    const email = freshEmail('noproject');
    await registerAccount(email, 'no project password');
    await page.goto('/signin');
    await typeEmail(page, email);
    await typePassword(page, 'no project password');
    await expect(page.getByRole('heading', { name: 'Create project' })).toBeVisible();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Project Name is required')).toBeVisible();
    await shoot(page, 'signin-new-project');
    await page.getByLabel('Project Name').fill('Fresh Clinic');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expectSignedIn(page);
  });

  test('scope: a third-party app signs a user in through /oauth2/authorize and /oauth, with a scope choice', async ({
    page,
  }) => {
    const app = await authorizeThirdPartyApp(page, {
      name: 'E2E SMART app',
      host: 'app.example.test',
      scope: 'openid patient/*.read launch',
      state: 'app-state-1',
    });
    await expect(page).toHaveURL(/\/oauth\?/);
    // The page names the app that asks (its registered name), here and in the consent step.
    await expect(page.getByText('E2E SMART app asks to use your Hearth EMR account')).toBeVisible();
    await typeEmail(page, alice);
    await typePassword(page, demoPassword);
    await expect(page.getByRole('heading', { name: 'Choose scope' })).toBeVisible();
    await expect(
      page.getByLabel('Read and search all records of the patient it is about patient/*.read'),
    ).toBeChecked();
    await expect(page.getByText('E2E SMART app asks for this access')).toBeVisible();
    await shoot(page, 'oauth-choose-scope');
    await expectAccessible(page);
    await page.getByLabel('Know which patient (and visit) is open in the chart launch').uncheck();
    await page.getByRole('button', { name: 'Set scope' }).click();
    await expect(page).toHaveURL(/^https:\/\/app\.example\.test\/callback\?code=[^&]+&state=app-state-1$/);
    const code = new URL(page.url()).searchParams.get('code') as string;
    const tokens = await appTokens(app, code);
    expect(tokens.access_token).toBeTruthy();
    expect(tokens.scope).toContain('patient/*.read');
    expect(tokens.scope).not.toContain('launch');
  });

  test("standalone launch: a clinician chooses the app's patient in the consent step", async ({ page }) => {
    const app = await authorizeThirdPartyApp(page, {
      name: 'E2E standalone app',
      host: 'standalone.example.test',
      scope: 'openid launch/patient patient/*.read',
      state: 'standalone-1',
    });
    await typeEmail(page, alice);
    await typePassword(page, demoPassword);
    await expect(page.getByRole('heading', { name: 'Choose scope' })).toBeVisible();
    await page.getByRole('button', { name: 'Set scope' }).click();
    await expect(page.getByText('Choose the patient the application is about')).toBeVisible();
    const field = page.getByRole('combobox', { name: 'Patient' });
    // Found by birth date as by name; the field says so once the error is answered.
    await field.fill('2000-11-15');
    await expect(page.getByRole('option', { name: /Wendy Littel · born 15 Nov 2000/ })).toBeVisible();
    await page.getByRole('option', { name: /Wendy Littel/ }).click();
    await expect(page.getByText('Search by name, birth date (YYYY-MM-DD) or record number')).toBeVisible();
    await shoot(page, 'oauth-choose-patient-chosen');
    await field.fill('Wendy');
    const option = page.getByRole('option', { name: /Wendy/ });
    await expect(option).toHaveCount(1);
    await shoot(page, 'oauth-choose-patient');
    await expectAccessible(page);
    await option.click();
    await page.getByRole('button', { name: 'Set scope' }).click();
    await expect(page).toHaveURL(/^https:\/\/standalone\.example\.test\/callback\?code=[^&]+&state=standalone-1$/);
    const code = new URL(page.url()).searchParams.get('code') as string;
    const tokens = await appTokens(app, code);
    expect(tokens.patient).toBeTruthy();
    const patient = await getJson(`fhir/R4/Patient/${tokens.patient}`, tokens.access_token);
    expect(patient.resourceType).toBe('Patient');
    expect(JSON.stringify(patient.name)).toContain('Wendy');
  });

  test('a /oauth link whose redirect_uri runs script is refused before anyone signs in', async ({ page }) => {
    let dialogs = 0;
    page.on('dialog', (dialog) => {
      dialogs++;
      void dialog.dismiss();
    });
    const link = new URL('oauth', base);
    link.searchParams.set('response_type', 'code');
    link.searchParams.set('client_id', 'any-app');
    link.searchParams.set('redirect_uri', 'javascript:alert(document.cookie)');
    await page.goto(link.toString());
    await expect(page.getByRole('alert')).toContainText(
      'This sign-in link is not valid: Redirect URI scheme "javascript:" is not allowed: use https',
    );
    await expect(page.getByLabel('Email')).toHaveCount(0);
    await shoot(page, 'oauth-invalid-redirect');
    await expectAccessible(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page);
    expect(dialogs).toBe(0);
    await expect(page).toHaveURL(/\/oauth\?/);
  });

  test('external identity provider: the email domain signs in at a loopback OIDC provider and comes back to the page asked for', async ({
    page,
  }) => {
    const provider = await startOidcProvider();
    try {
      const domain = `sso-${Date.now()}.example`;
      const email = `doctor@${domain}`;
      await registerAccount(email, 'unused sso password', 'SSO Clinic');
      const admin = await adminTokens();
      const configured = await postJson(
        'fhir/R4/DomainConfiguration',
        {
          resourceType: 'DomainConfiguration',
          domain,
          identityProvider: identityProviderFor(provider),
        },
        admin.access_token,
      );
      expect(configured.status, JSON.stringify(configured.body)).toBe(201);
      provider.person = { sub: `ext-${Date.now()}`, email };

      await page.goto('/Patient');
      await expect(page).toHaveURL(/\/signin\?next=%2FPatient$/);
      await typeEmail(page, email);
      await expectSignedIn(page);
      await expect(page).toHaveURL(/\/Patient$/);
      // The provider was asked with the server's state and PKCE.
      expect(provider.lastTokenRequest?.get('code_verifier')).toBeTruthy();

      // Someone the provider knows but this server does not: the error comes back to the sign-in page.
      await page.evaluate(() => localStorage.clear());
      provider.person = { sub: 'stranger', email: `stranger@${domain}` };
      await page.goto('/signin');
      await typeEmail(page, `stranger@${domain}`);
      await expect(page.getByRole('alert')).toContainText('No Hearth EMR account matches this identity');
      await shoot(page, 'signin-external-error');
    } finally {
      await provider.close();
    }
  });

  test('forgot password: the neutral answer, the link from the outbox, a new password that works', async ({ page }) => {
    const email = freshEmail('reset');
    await registerAccount(email, 'the forgotten password', 'Reset Clinic');
    await page.goto('/signin');
    await typeEmail(page, email);
    await page.getByRole('link', { name: 'Forgot password' }).click();
    await expect(page).toHaveURL(/\/resetpassword$/);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByText(/If an account uses this email/)).toBeVisible();
    await shoot(page, 'reset-password-sent');
    await expectAccessible(page);

    const link = await resetLinkFor(email);
    expect(link.startsWith(`${base}setpassword/`)).toBe(true);
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await page.getByLabel(/^New password/).fill('my new password');
    await page.getByLabel(/^Confirm password/).fill('my new passwort');
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect(page.getByText('Passwords do not match')).toBeVisible();
    await shoot(page, 'set-password-mismatch');
    await page.getByLabel(/^Confirm password/).fill('my new password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect(page.getByText(/Your password is set/)).toBeVisible();
    // The link works once.
    await page.goto(link);
    await page.getByLabel(/^New password/).fill('another password');
    await page.getByLabel(/^Confirm password/).fill('another password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect(page.getByRole('alert')).toContainText('This password link is invalid or has expired');

    await page.goto('/signin');
    await typeEmail(page, email);
    await typePassword(page, 'my new password');
    await expectSignedIn(page);
  });
});
