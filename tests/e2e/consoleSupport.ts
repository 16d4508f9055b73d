/**
 * Support for the resource console's end-to-end tests: the content area, signing in through the
 * real sign-in page, and FHIR calls made from the page with its own access token.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { demoPassword } from './signInSupport';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- FHIR JSON read back from the server, any shape
type FhirJson = any;

/** The page's content area (the shell has its own search box and type picker). */
export function main(page: Page): Locator {
  return page.getByRole('main');
}

/** Signs in through /signin with email and password (the demo accounts' password by default). */
export async function signInAs(page: Page, email: string, password = demoPassword): Promise<void> {
  await page.goto('/signin');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
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
