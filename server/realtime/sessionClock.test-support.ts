import { expect } from 'vitest';
import { signInThroughClient } from '../../tests/integration/accounts';
import { http } from '../../tests/integration/fhirClient';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/**
 * Signs `person` in through a new ClientApplication of their project whose refresh tokens last
 * `seconds` (`refreshTokenLifetime`): the session of that sign-in ends `seconds` after its tokens
 * were granted unless it refreshes — so a test of a session's end waits for seconds, not a day.
 * Its access token outlives the session (an hour), as a real one can. Answers the access token.
 */
export async function shortSessionSignIn(
  person: { email: string; password: string; tokens: { access_token: string } },
  seconds: number,
): Promise<string> {
  const client = await http<any>('POST', 'fhir/R4/ClientApplication', {
    token: person.tokens.access_token,
    body: {
      resourceType: 'ClientApplication',
      name: `Short session ${Date.now()}`,
      redirectUri: 'https://app.example/cb',
      refreshTokenLifetime: `${seconds}s`,
    },
  });
  expect(client.status).toBe(201);
  const tokens = await signInThroughClient(person.email, person.password, client.body.id);
  expect(tokens.status).toBe(200);
  return tokens.body.access_token;
}
