import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import smart from 'fhirclient';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, http } from '../fhirClient';
import { postJson, registerProjectOwner, uniqueEmail } from '../accounts';

/* eslint-disable @typescript-eslint/no-explicit-any -- fhirclient's state and FHIR answers are free-form */

/**
 * Issue 18, SMART App Launch: fhirclient's own authorize → ready flow, end to end, with iss = the
 * FHIR base. The app is a real Node HTTP server using fhirclient's Node adapter; the test is the
 * user agent: it follows the redirects and makes the calls the /oauth page makes.
 */
describe("SMART launch with fhirclient's authorize → ready", () => {
  let app: Server;
  let appUrl: string;
  let clientId: string;
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let patientId: string;
  let encounterId: string;
  /** What the app's callback learned through fhirclient (or the error it hit). */
  let lastReady: any;

  const fhirBase = () => `${baseUrl()}fhir/R4`;
  // One browser session of the app (fhirclient keeps its state there between /launch and /callback).
  const session: Record<string, unknown> = {};
  const storage = {
    get: async (key: string) => session[key],
    set: async (key: string, value: unknown) => (session[key] = value),
    unset: async (key: string) => delete session[key],
  };

  async function appHandler(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url as string, appUrl);
    const api = smart(request as any, response as any, storage);
    if (url.pathname === '/launch') {
      const scope = url.searchParams.get('launch')
        ? 'openid fhirUser launch patient/*.read'
        : 'openid fhirUser launch/patient patient/*.read';
      await api.authorize({ clientId, scope, redirectUri: '/callback' });
      return;
    }
    try {
      const client = await api.ready();
      lastReady = {
        patientId: client.patient.id,
        encounterId: client.encounter.id,
        fhirUser: client.user.fhirUser,
        tokenResponse: client.state.tokenResponse,
        patient: client.patient.id ? await client.patient.read() : undefined,
      };
    } catch (error) {
      lastReady = { error: (error as Error).message };
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  }

  /** The user agent: app launch → /oauth2/authorize → the /oauth page's calls → code → app callback. */
  async function launchAs(email: string, password: string, launch?: string, chooseFamily?: string) {
    lastReady = undefined;
    const query = new URLSearchParams({ iss: fhirBase(), ...(launch ? { launch } : {}) });
    const toAuthorize = await fetch(`${appUrl}launch?${query}`, { redirect: 'manual' });
    expect(toAuthorize.status).toBe(302);
    const toPage = await fetch(toAuthorize.headers.get('location') as string, { redirect: 'manual' });
    expect(toPage.status).toBe(302);
    const page = new URL(toPage.headers.get('location') as string);
    expect(page.pathname).toBe('/oauth');
    const asked = Object.fromEntries(page.searchParams);
    // What custom-screens/signin (thirdPartyRequest + useSignIn) send for this page.
    let step = await postJson('auth/login', {
      email,
      password,
      clientId: asked.client_id,
      redirectUri: asked.redirect_uri,
      scope: asked.scope,
      codeChallenge: asked.code_challenge,
      codeChallengeMethod: asked.code_challenge_method,
      ...(asked.launch ? { launch: asked.launch } : {}),
    });
    let patient: string | undefined;
    if (step.body.patientChoice && chooseFamily) {
      // The consent step's patient search, as the page's "Patient" field makes it.
      const found = await http<any>('GET', `auth/login/${step.body.login}/patients?text=${chooseFamily}`, {
        token: null,
      });
      patient = found.body.patients[0]?.id;
    }
    if (step.body.scopes)
      step = await postJson('auth/scope', {
        login: step.body.login,
        scope: step.body.scopes.join(' '),
        ...(patient ? { patient } : {}),
      });
    expect(typeof step.body.code, JSON.stringify(step.body)).toBe('string');
    const back = new URL(asked.redirect_uri);
    back.searchParams.set('code', step.body.code);
    back.searchParams.set('state', asked.state);
    expect((await fetch(back)).status).toBe(200);
    return lastReady;
  }

  beforeAll(async () => {
    owner = await registerProjectOwner();
    app = createServer((request, response) => {
      appHandler(request, response).catch((error: Error) => response.writeHead(500).end(error.message));
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/`;
    const token = owner.tokens.access_token;
    const client = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token,
      body: { resourceType: 'ClientApplication', name: 'fhirclient app', redirectUri: `${appUrl}callback` },
    });
    clientId = client.body.id;
    patientId = (
      await http<any>('POST', 'fhir/R4/Patient', {
        token,
        body: { resourceType: 'Patient', name: [{ family: 'Launched' }] },
      })
    ).body.id;
    encounterId = (
      await http<any>('POST', 'fhir/R4/Encounter', {
        token,
        body: {
          resourceType: 'Encounter',
          status: 'in-progress',
          class: { code: 'AMB' },
          subject: { reference: `Patient/${patientId}` },
        },
      })
    ).body.id;
  });

  afterAll(async () => {
    await new Promise((resolve) => app.close(resolve));
  });

  it('EHR launch: the chart saves a SmartAppLaunch, the app gets its patient and encounter, and reads the patient', async () => {
    const launch = await http<any>('POST', 'fhir/R4/SmartAppLaunch', {
      token: owner.tokens.access_token,
      body: {
        resourceType: 'SmartAppLaunch',
        patient: { reference: `Patient/${patientId}` },
        encounter: { reference: `Encounter/${encounterId}` },
      },
    });
    expect(launch.status).toBe(201);
    const ready = await launchAs(owner.email, owner.password, launch.body.id);
    expect(ready.error).toBeUndefined();
    expect(ready.tokenResponse.patient).toBe(patientId);
    expect(ready.tokenResponse.encounter).toBe(encounterId);
    expect(ready.patientId).toBe(patientId);
    expect(ready.encounterId).toBe(encounterId);
    expect(ready.fhirUser).toBe(owner.tokens.profile.reference);
    expect(ready.patient.name[0].family).toBe('Launched');
    // The access token carries the patient claim; the Login records its launch.
    const claims = JSON.parse(Buffer.from(ready.tokenResponse.access_token.split('.')[1], 'base64url').toString());
    expect(claims.patient).toBe(patientId);
    // (Read as the super admin: a project's own admins do not see its Login records.)
    const login = await http<any>('GET', `fhir/R4/Login/${claims.login_id}`);
    expect(login.status).toBe(200);
    expect(login.body.launch?.reference).toBe(`SmartAppLaunch/${launch.body.id}`);
  });

  it("refuses another project's launch id and a made-up one: no token with a borrowed patient", async () => {
    const other = await registerProjectOwner();
    // A launch of the other project, about a patient of that project (references must resolve there).
    const theirPatient = await http<any>('POST', 'fhir/R4/Patient', {
      token: other.tokens.access_token,
      body: { resourceType: 'Patient', name: [{ family: 'Elsewhere' }] },
    });
    expect(theirPatient.status).toBe(201);
    const foreign = await http<any>('POST', 'fhir/R4/SmartAppLaunch', {
      token: other.tokens.access_token,
      body: { resourceType: 'SmartAppLaunch', patient: { reference: `Patient/${theirPatient.body.id}` } },
    });
    expect(foreign.status).toBe(201);
    for (const launch of [foreign.body.id, randomUUID()]) {
      const ready = await launchAs(owner.email, owner.password, launch);
      expect(ready.error).toMatch(/launch context|invalid_grant|400/i);
      expect(ready.tokenResponse).toBeUndefined();
    }
  });

  it('standalone launch/patient by a patient: the token response names their own record and fhirUser', async () => {
    const email = uniqueEmail('patient');
    const password = `patient-${randomUUID()}`;
    const invited = await http<any>('POST', `admin/projects/${owner.projectId}/invite`, {
      token: owner.tokens.access_token,
      headers: { 'content-type': 'application/json' },
      body: { resourceType: 'Patient', firstName: 'Pat', lastName: 'Standalone', email, password, sendEmail: false },
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(200);
    const profile = invited.body.profile.reference as string;
    const ready = await launchAs(email, password);
    expect(ready.error).toBeUndefined();
    expect(`Patient/${ready.tokenResponse.patient}`).toBe(profile);
    expect(ready.tokenResponse.fhirUser).toBe(profile);
    expect(ready.fhirUser).toBe(profile);
    expect(ready.patient.name[0].family).toBe('Standalone');
  });

  it('standalone launch/patient by a clinician: the patient chosen in the consent step reaches the app', async () => {
    const ready = await launchAs(owner.email, owner.password, undefined, 'Launched');
    expect(ready.error).toBeUndefined();
    expect(ready.tokenResponse.patient).toBe(patientId);
    expect(ready.patientId).toBe(patientId);
    expect(ready.patient.name[0].family).toBe('Launched');
    expect(ready.fhirUser).toBe(owner.tokens.profile.reference);
  });
});
