/**
 * A browser app served from another origin (a SMART app) calls the API with its token: Chromium's
 * own CORS checks, not a simulation of them. The app's page comes from a server of the test's own
 * on another port of the loopback (another origin to the browser; a page Playwright made up would
 * count as public, and Chromium keeps public pages off loopback addresses whatever CORS says).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { signIn } from '../../server/cli/passwordSignIn';
import { demoPassword } from './signInSupport';

const port = Number(process.env.E2E_PORT ?? 8199);
const api = `http://127.0.0.1:${port}/`;

test('an app on another origin reads the FHIR API and refreshes its token; the sign-in calls stay closed to it', async ({
  page,
}) => {
  const tokens = await signIn(api, 'alice@demo.hearth.example', demoPassword);
  const appServer: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<!doctype html><title>SMART app</title><p>App</p>');
  });
  await new Promise<void>((resolve) => appServer.listen(0, '127.0.0.1', resolve));
  const appOrigin = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}`;
  try {
    await page.goto(`${appOrigin}/`);
    expect(await page.evaluate(() => location.origin)).toBe(appOrigin);

    const result = await page.evaluate(
      async ({ api, accessToken, refreshToken }) => {
        const call = async (path: string, init: RequestInit) => {
          try {
            const response = await fetch(api + path, init);
            return { status: response.status, body: await response.json(), etag: response.headers.get('etag') };
          } catch (error) {
            return { failed: String(error) };
          }
        };
        const bearer = { authorization: `Bearer ${accessToken}` };
        return {
          search: await call('fhir/R4/Patient?_count=1', { headers: bearer }),
          // Authorization and a FHIR content type make the browser ask first (a preflight).
          created: await call('fhir/R4/Patient', {
            method: 'POST',
            headers: { ...bearer, 'content-type': 'application/fhir+json' },
            body: JSON.stringify({ resourceType: 'Patient', name: [{ family: 'Crossorigin' }] }),
          }),
          refresh: await call('oauth2/token', {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            // As Medplum's client sends it.
            credentials: 'include',
            body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }).toString(),
          }),
          me: await call('auth/me', { headers: bearer }),
        };
      },
      { api, accessToken: tokens.access_token, refreshToken: tokens.refresh_token as string },
    );
    expect(result.search).toMatchObject({ status: 200, body: { resourceType: 'Bundle' } });
    expect(result.created).toMatchObject({ status: 201, body: { resourceType: 'Patient' } });
    // The version, among the headers the app's script may read.
    expect((result.created as { etag: string | null }).etag).toMatch(/^W\/"/);
    expect(result.refresh).toMatchObject({ status: 200 });
    expect(typeof (result.refresh as { body: { access_token?: string } }).body.access_token).toBe('string');
    // This server's own account calls answer no CORS: the browser refuses to hand them to the page.
    expect(result.me).toEqual({ failed: expect.stringContaining('Failed to fetch') });

    // Tidy: the demo clinic keeps its six patients for the other specs.
    const id = (result.created as { body: { id: string } }).body.id;
    const removed = await fetch(`${api}fhir/R4/Patient/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(removed.status).toBeLessThan(300);
  } finally {
    await new Promise((resolve) => appServer.close(resolve));
  }
});
