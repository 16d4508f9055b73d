import { describe, expect, it } from 'vitest';
import { FhirClient, MemoryStorage } from '../../data-provider/client';
import { FakeFetch, fakeJwt, jsonResponse } from '../../data-provider/client/fakeFetch';
import { onboardingDraftKey } from '../chart/onboarding/onboardingDraftKey';
import { taskFillBackupKey, visitNoteBackupKey } from './answerBackupRules';
import { forgetDraftsOnSignOut } from './forgetDraftsOnSignOut';

const server = 'http://ehr.test/';

/** A tab's session storage, in memory. */
class TabStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  clear() {
    this.items.clear();
  }
  keys() {
    return [...this.items.keys()].sort();
  }
}

/** A client of a server that knows Practitioner/a. */
function clientOfServer() {
  const fake = new FakeFetch();
  fake.on('GET', `${server}auth/me`, () =>
    jsonResponse({
      profile: { resourceType: 'Practitioner', id: 'a' },
      project: { resourceType: 'Project', id: 'pr1' },
      membership: { resourceType: 'ProjectMembership', id: 'm1' },
    }),
  );
  fake.on('POST', `${server}oauth2/logout`, () => jsonResponse({}));
  return new FhirClient({ baseUrl: server, clientId: 'app', fetch: fake.fetch, storage: new MemoryStorage() });
}

/** Signs in as Practitioner/a and loads the session (so the client knows its profile). */
async function signIn(client: FhirClient) {
  client.setAccessToken(fakeJwt({ exp: Math.floor(Date.now() / 1000) + 3600, client_id: 'app' }));
  await client.getProfileAsync();
}

function tabWithDrafts() {
  const tab = new TabStorage();
  const mine = [
    visitNoteBackupKey('Practitioner/a', 'p1', { url: 'https://q' }),
    taskFillBackupKey('Practitioner/a', 't1'),
    'hearth.chatDraft.Practitioner/a|Patient/p1',
    onboardingDraftKey('Practitioner/a') as string,
  ];
  const others = [
    taskFillBackupKey('Practitioner/ab', 't1'),
    'hearth.chatDraft.Practitioner/b|Patient/p1',
    onboardingDraftKey('Practitioner/b') as string,
    'hearth.somethingElse',
  ];
  for (const key of [...mine, ...others]) tab.setItem(key, '{}');
  return { tab, others };
}

describe('signing out', () => {
  it("removes the account's unsaved answers, unsent messages and half-typed new patient from the tab, and no one else's", async () => {
    const client = clientOfServer();
    const { tab, others } = tabWithDrafts();
    forgetDraftsOnSignOut(client, () => tab);
    await signIn(client);
    // A session that merely ends (expired, refused) keeps them for the same clinician's next sign-in.
    client.clearActiveLogin();
    expect(tab.length).toBe(8);

    await signIn(client);
    await client.signOut();
    expect(tab.keys()).toEqual([...others].sort());
  });
});
