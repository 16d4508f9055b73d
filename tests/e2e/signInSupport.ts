/**
 * Support for the sign-in end-to-end tests: calls to the e2e server's API (accounts, configuration),
 * the e-mail outbox of its DATA_DIR, screenshots in both colour schemes and the axe check.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { exchangeCode, pkcePair, signIn, type Tokens } from '../../server/cli/passwordSignIn';
import { injectAxe } from './axeInjection';

export const base = `http://127.0.0.1:${process.env.E2E_PORT ?? 8199}/`;
export const demoPassword = 'e2e-demo-password';
export const adminEmail = 'admin@example.com';
export const adminPassword = 'e2e-admin-password';
const screenshots = 'docs/screenshots';

export async function postJson(
  path: string,
  body: unknown,
  token?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(new URL(path, base), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export async function getJson(path: string, token: string): Promise<Record<string, unknown>> {
  const response = await fetch(new URL(path, base), { headers: { authorization: `Bearer ${token}` } });
  return (await response.json()) as Record<string, unknown>;
}

/** An e-mail address nobody used yet in this run. */
export function freshEmail(tag: string, domain = 'e2e.hearth.example'): string {
  return `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@${domain}`;
}

/** Registers an account through the API; with a project name it also gets a project and is signed in. */
export async function registerAccount(
  email: string,
  password: string,
  projectName?: string,
): Promise<Tokens | undefined> {
  const { verifier, challenge } = pkcePair();
  const user = await postJson('auth/newuser', {
    firstName: 'Test',
    lastName: email.split('@')[0],
    email,
    password,
    codeChallenge: challenge,
    codeChallengeMethod: 'S256',
  });
  expect(user.status, JSON.stringify(user.body)).toBe(200);
  if (!projectName) return undefined;
  const project = await postJson('auth/newproject', { login: user.body.login, projectName });
  expect(project.status, JSON.stringify(project.body)).toBe(200);
  return exchangeCode(base, project.body.code as string, verifier);
}

export function adminTokens(): Promise<Tokens> {
  return signIn(base, adminEmail, adminPassword, { project: 'Hearth EMR Admin' });
}

export { exchangeCode, pkcePair, signIn };

/** The link of the newest password e-mail to `email` in the server's outbox (DATA_DIR/outbox). */
export async function resetLinkFor(email: string): Promise<string> {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set (playwright.config.ts sets it for the e2e server)');
  const outbox = join(dataDir, 'outbox');
  let link: string | undefined;
  await expect
    .poll(
      () => {
        const files = readdirSync(outbox)
          .map((name) => join(outbox, name))
          .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
        for (const file of files) {
          const text = readFileSync(file, 'utf8');
          if (!text.includes(email)) continue;
          link = /https?:\/\/\S+\/setpassword\/[^\s"\\]+/.exec(text)?.[0];
          if (link) return true;
        }
        return false;
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return link as string;
}

/** Waits until the page's CSS transitions (theme colours, floating labels) have finished. */
async function settled(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
  await expect
    .poll(() => page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').length))
    .toBe(0);
}

/** Screenshots of the current screen in light and dark mode (the app follows the system setting by default). */
export async function shoot(page: Page, name: string): Promise<void> {
  await page.emulateMedia({ colorScheme: 'light' });
  await settled(page);
  await page.screenshot({ path: `${screenshots}/${name}-light.png` });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect
    .poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor))
    .not.toBe('rgb(255, 255, 255)');
  await settled(page);
  await page.screenshot({ path: `${screenshots}/${name}-dark.png` });
  await page.emulateMedia({ colorScheme: 'light' });
  await settled(page);
}

interface AxeResult {
  violations: { id: string; impact?: string; help: string; nodes: { target: unknown; failureSummary?: string }[] }[];
}

/** axe-core on the page: no serious or critical violation. */
export async function expectAccessible(page: Page): Promise<void> {
  await settled(page);
  await injectAxe(page);
  const result = await page.evaluate(
    () => (window as unknown as { axe: { run(): Promise<AxeResult> } }).axe.run() as Promise<AxeResult>,
  );
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id}: ${v.help} ${JSON.stringify(v.nodes.map((n) => [n.target, n.failureSummary]))}`),
  ).toEqual([]);
}

/** Browser console errors, apart from the failed requests that refused sign-ins cause by design. */
export function collectErrors(page: Page): string[] {
  const messages: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().includes('Failed to load resource'))
      messages.push(message.text());
  });
  page.on('pageerror', (error) => messages.push(error.message));
  return messages;
}
