import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { baseUrl, http, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner, tokenRequest } from '../../tests/integration/accounts';
import { signIn } from '../../tests/integration/signIn';
import { confirmAddressByReset } from './addressOwnership.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- the auth answers are free-form JSON */

const exchangeGrant = 'urn:ietf:params:oauth:grant-type:token-exchange';
const accessTokenType = 'urn:ietf:params:oauth:token-type:access_token';

/**
 * Issue 14 item 2: project B's admin registers a ClientApplication whose identity provider's
 * userinfo is their own server, which answers with whatever identity they like. Their word counts
 * in project B only.
 */
describe('token exchange is bound to the client project', () => {
  // The attacker's "identity provider": any bearer token is whoever it is told to claim.
  let claims: { sub: string; email?: string } = { sub: 'nobody' };
  let attackerServer: Server;
  let userInfoUrl: string;
  let attacker: Awaited<ReturnType<typeof registerProjectOwner>>;
  let victim: Awaited<ReturnType<typeof registerProjectOwner>>;
  let clientId: string;

  beforeAll(async () => {
    attackerServer = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(claims));
    });
    // Where an attacker's public server would be: a loopback port the test server lists in
    // BOT_FETCH_ALLOWED_HOSTS (any other internal address is refused: projectUrlFetch.test.ts).
    await new Promise<void>((resolve) => attackerServer.listen(inject('outboundTestPort'), '127.0.0.1', resolve));
    userInfoUrl = `http://127.0.0.1:${(attackerServer.address() as AddressInfo).port}/userinfo`;
    victim = await registerProjectOwner('Victim Clinic');
    attacker = await registerProjectOwner('Attacker Project');
    const client = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token: attacker.tokens.access_token,
      body: {
        resourceType: 'ClientApplication',
        name: 'Exchange app',
        identityProvider: {
          authorizeUrl: `${userInfoUrl}/authorize`,
          tokenUrl: `${userInfoUrl}/token`,
          userInfoUrl,
          clientId: 'anything',
          clientSecret: 'anything',
        },
      },
    });
    expect(client.status, JSON.stringify(client.body)).toBe(201);
    clientId = client.body.id;
  });
  afterAll(async () => new Promise<void>((resolve) => attackerServer.close(() => resolve())));

  const exchange = (form: Record<string, string> = {}) =>
    tokenRequest({
      grant_type: exchangeGrant,
      client_id: clientId,
      subject_token: 'made-up',
      subject_token_type: accessTokenType,
      ...form,
    });

  it("refuses the super admin's e-mail: no token, let alone a super admin one", async () => {
    claims = { sub: 'x', email: 'admin@example.com' };
    const answer = await exchange();
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: 'invalid_grant',
      error_description: "No account of the client's project matches the subject token",
    });
    expect(answer.body.access_token).toBeUndefined();
  });

  it('refuses a member of another project, with the same answer as for an unknown e-mail', async () => {
    claims = { sub: 'x', email: victim.email };
    const member = await exchange();
    claims = { sub: 'x', email: 'no-such-person@test.example' };
    const unknown = await exchange();
    expect(member.status).toBe(400);
    expect(member.body).toEqual(unknown.body);
  });

  it('exchanges for a member of the client project, acting in that project only', async () => {
    claims = { sub: 'x', email: attacker.email };
    const answer = await exchange();
    expect(answer.status).toBe(200);
    const me = await http<any>('GET', 'auth/me', { token: answer.body.access_token });
    expect(me.body.user.email).toBe(attacker.email);
    expect(me.body.project.id).toBe(attacker.projectId);
  });

  it('a person who is a member of B and of other projects gets B, never another membership', async () => {
    // The victim has proved their address (an invitation to an unproved one would wait for the
    // address owner: addressOwnership.test.ts); the reset ends their sessions, so they sign in again.
    await confirmAddressByReset(victim.email, victim.password);
    const victimSession = await signIn(baseUrl(), victim.email, victim.password);
    // The victim is invited into B: from now on B's provider may vouch for them, but only in B.
    const invited = await http<any>('POST', `admin/projects/${attacker.projectId}/invite`, {
      token: attacker.tokens.access_token,
      headers: { 'content-type': 'application/json' },
      body: { resourceType: 'Practitioner', firstName: 'Vic', lastName: 'Tim', email: victim.email, sendEmail: false },
    });
    expect(invited.status).toBe(200);
    claims = { sub: 'x', email: victim.email };
    const answer = await exchange();
    expect(answer.status).toBe(200);
    const token = answer.body.access_token;
    const me = await http<any>('GET', 'auth/me', { token });
    expect(me.body.project.id).toBe(attacker.projectId);
    expect(me.body.membership.admin).toBeUndefined();
    // Nothing of the victim's own clinic is reachable with it.
    const elsewhere = await http<any>('GET', `fhir/R4/Project/${victim.projectId}`, { token });
    expect(elsewhere.status).toBe(404);
    // And the account's security, which spans all its projects, is not the exchanged session's to change.
    expect(me.body.security.sessions).toEqual([]);
    for (const [method, path, body] of [
      ['GET', 'auth/mfa/status', undefined],
      ['POST', 'auth/mfa/enroll', { token: '123456' }],
      ['POST', 'auth/mfa/disable', { token: '123456' }],
      ['POST', 'auth/revoke', { loginId: 'any' }],
      ['POST', 'auth/changepassword', { oldPassword: victim.password, newPassword: 'taken over 123' }],
    ] as const) {
      const refused = await http<any>(method, path, {
        token,
        ...(body ? { body, headers: { 'content-type': 'application/json' } } : {}),
      });
      expect(refused.status, path).toBe(403);
      expect(issueText(refused.body)).toBe(
        "Sign in with the account's own credentials to change its security settings",
      );
    }
    // The victim's own sessions still work and still see their clinic.
    const own = await http<any>('GET', 'auth/me', { token: victimSession.access_token });
    expect(own.body.project.id).toBe(victim.projectId);
  });

  it('refuses a provider that does not answer or answers no subject', async () => {
    claims = { sub: '' };
    expect((await exchange()).body.error_description).toBe('The identity provider did not accept the subject token');
    const client = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token: attacker.tokens.access_token,
      body: {
        resourceType: 'ClientApplication',
        name: 'Dead provider',
        identityProvider: {
          userInfoUrl: 'http://127.0.0.1:9/userinfo',
          authorizeUrl: 'http://127.0.0.1:9/a',
          tokenUrl: 'http://127.0.0.1:9/t',
          clientId: 'x',
          clientSecret: 'x',
        },
      },
    });
    // Unreachable or refused, the answer is the one for a token the provider did not vouch for.
    const dead = await exchange({ client_id: client.body.id });
    expect(dead.status).toBe(400);
    expect(dead.body).toEqual({
      error: 'invalid_grant',
      error_description: 'The identity provider did not accept the subject token',
    });
  });
});
