/**
 * Support for the resource console's end-to-end tests: the content area, signing in, and FHIR
 * calls made from the page with its own access token.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { LOGIN_STORAGE_KEYS } from '../../data-provider/client/loginStore';
import type { LoginState } from '../../data-provider/client/authTypes';
import { signIn } from '../../server/cli/passwordSignIn';
import { base, demoPassword } from './signInSupport';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- FHIR JSON read back from the server, any shape
type FhirJson = any;

/** The page's content area (the shell has its own search box and type picker). */
export function main(page: Page): Locator {
  return page.getByRole('main');
}

/**
 * A Synthea patient of the demo clinic, opened from the home list as a user would; answers their id.
 * Each test that writes uses its own patient, so the screenshots' patient (Wendy Littel) stays as seeded.
 */
export async function openPatient(page: Page, name: RegExp = /Wendy/): Promise<string> {
  await page.goto('/');
  const row = main(page).getByRole('row', { name });
  await expect(row).toBeVisible();
  await row.click();
  await expect(page).toHaveURL(/\/Patient\/[^/]+$/);
  return new URL(page.url()).pathname.split('/')[2];
}

/**
 * Signs in the way the web app does (PKCE, /auth/login, /oauth2/token) but through the API, and
 * hands the tokens to the page as the app keeps them; then opens the home page. The sign-in page
 * itself is tested in signIn.spec.ts and signInAndPatients.spec.ts: every other test starting
 * there cost ~1.5 s each (a whole app load and the form) on this 2-core machine.
 */
export async function signInAs(page: Page, email: string, password = demoPassword): Promise<void> {
  const tokens = await signIn(base, email, password);
  const login: LoginState = {
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    project: tokens.project,
    profile: tokens.profile,
  };
  // A page of the app's origin that does not start the app, so that the login is in storage
  // before the app first reads it.
  await page.goto('/healthcheck');
  await page.evaluate(
    ({ keys, login }) => {
      localStorage.setItem(keys.activeLogin, JSON.stringify(login));
      localStorage.setItem(keys.logins, JSON.stringify([login]));
    },
    { keys: LOGIN_STORAGE_KEYS, login },
  );
  await page.goto('/');
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page).not.toHaveURL(/\/signin/);
}

/** A FHIR call with the signed-in page's access token: its status and parsed body. */
export async function rawApi(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: FhirJson }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const login = JSON.parse(localStorage.getItem('hearth.activeLogin') ?? '{}');
      const response = await fetch(`/fhir/R4/${path}`, {
        method,
        headers: { authorization: `Bearer ${login.accessToken}`, 'content-type': 'application/fhir+json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    { method, path, body },
  );
}

/** A FHIR call that must succeed: its body. */
export async function api(page: Page, method: string, path: string, body?: unknown): Promise<FhirJson> {
  const answer = await rawApi(page, method, path, body);
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  return answer.body;
}

export async function apiStatus(page: Page, method: string, path: string, body?: unknown): Promise<number> {
  return (await rawApi(page, method, path, body)).status;
}
