import { beforeAll, describe, expect, it } from 'vitest';
import { http } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';

/* eslint-disable @typescript-eslint/no-explicit-any -- the answers are free-form JSON */

/** `GET /auth/clientinfo/{id}`: the app's name for the sign-in page, and nothing else of it. */
describe('the name a sign-in page shows for an app', () => {
  let clientId: string;

  beforeAll(async () => {
    const owner = await registerProjectOwner('Client Info Clinic');
    const created = await http<any>('POST', 'fhir/R4/ClientApplication', {
      token: owner.tokens.access_token,
      body: {
        resourceType: 'ClientApplication',
        name: 'Growth charts',
        description: 'Internal: billing contact is Bob',
        secret: 'do-not-show-this-secret',
        redirectUri: 'https://growth.example/cb',
      },
    });
    expect(created.status).toBe(201);
    clientId = created.body.id;
  });

  it('answers the name to anyone, without a token, and nothing else of the client', async () => {
    const answer = await http<any>('GET', `auth/clientinfo/${clientId}`, { token: null });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ id: clientId, name: 'Growth charts' });
    expect(JSON.stringify(answer.body)).not.toMatch(/secret|growth\.example|billing/);
  });

  it('answers 404 for an unknown or malformed client id', async () => {
    for (const id of ['no-such-client', 'a%2Fb', 'x'.repeat(80)]) {
      expect((await http('GET', `auth/clientinfo/${id}`, { token: null })).status, id).toBe(404);
    }
  });
});
