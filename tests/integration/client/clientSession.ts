import { inject } from 'vitest';
import { FhirClient, MemoryStorage, type FetchLike, type FhirClientOptions } from '../../../data-provider/client';
import { registerProjectOwner } from '../accounts';

/** A request as the client sent it (method and path below the server), for tests that count calls. */
export interface SentRequest {
  method: string;
  path: string;
  status: number;
}

/** Our FhirClient against the test server, with every request it sends recorded. */
export function testClient(options: Partial<FhirClientOptions> = {}): { client: FhirClient; sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  const base = options.baseUrl ?? inject('baseUrl');
  const recordingFetch: FetchLike = async (url, init) => {
    const response = await fetch(url, init);
    sent.push({
      method: init.method ?? 'GET',
      path: url.toString().slice(new URL(base).origin.length),
      status: response.status,
    });
    return response;
  };
  const client = new FhirClient({ baseUrl: base, storage: new MemoryStorage(), fetch: recordingFetch, ...options });
  return { client, sent };
}

/**
 * Signs in through the client's own flow (auth/login with PKCE, then the code exchange), choosing
 * the membership of `project` (name or id) when the account has several.
 */
export async function signInWithClient(
  client: FhirClient,
  email: string,
  password: string,
  project?: string,
): Promise<void> {
  let step = await client.startLogin({ email, password });
  if (step.memberships) {
    const chosen = project
      ? step.memberships.find((m) => m.project?.display === project || m.project?.reference?.endsWith(`/${project}`))
      : step.memberships[0];
    if (!chosen?.id) throw new Error(`No membership of ${email} in ${project}`);
    step = await client.chooseProfile(step.login, chosen.id);
  }
  if (!step.code) throw new Error(`No code for ${email}: ${JSON.stringify(step)}`);
  await client.processCode(step.code);
}

/** A new project with its owner (a project admin), signed in with a fresh client. */
export async function ownerClient(options: Partial<FhirClientOptions> = {}) {
  const owner = await registerProjectOwner();
  const { client, sent } = testClient(options);
  await signInWithClient(client, owner.email, owner.password);
  return { owner, client, sent };
}
