import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import WebSocket from 'ws';
import {
  MedplumClient,
  MemoryStorage,
  OperationOutcomeError,
  parseJWTPayload,
  type SubscriptionEmitter,
} from '@medplum/core';
import type {
  Binary,
  Bundle,
  Communication,
  Observation,
  OperationOutcome,
  Patient,
  Practitioner,
  SubscriptionStatus,
} from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, http } from '../fhirClient';
import { registerProjectOwner, tokenRequest } from '../accounts';
import { pkcePair } from '../signIn';

/**
 * A sweep of the calls a Medplum app commonly makes, through a real `MedplumClient` (signed in by
 * its own PKCE flow) against the real server: each call's answer is checked, not only that it
 * does not throw. What does not work yet says so next to its assertion.
 */

/** The OperationOutcome a client call was refused with (the client throws OperationOutcomeError). */
async function refusal(work: Promise<unknown>): Promise<OperationOutcome> {
  try {
    await work;
  } catch (error) {
    if (error instanceof OperationOutcomeError) return error.outcome;
    throw error;
  }
  throw new Error('The call was expected to fail');
}

/** Waits for the first event of `type` on a subscription emitter that passes `match`. */
function nextEvent<T>(
  emitter: SubscriptionEmitter,
  type: 'connect' | 'message' | 'error',
  match: (payload: T) => boolean = () => true,
  ms = 10_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`No ${type} event within ${ms} ms`)), ms);
    const listener = (event: { payload?: unknown }) => {
      if (!match(event.payload as T)) return;
      clearTimeout(timer);
      emitter.removeEventListener(type, listener);
      resolve(event.payload as T);
    };
    emitter.addEventListener(type, listener);
  });
}

describe('@medplum/core MedplumClient sweep', () => {
  // The client's PKCE flow keeps its verifier in `sessionStorage` and its subscriptions use the
  // global `WebSocket`: a browser has both, Node 20 neither. They are put in place for this file
  // only (test files share their worker) and removed afterwards.
  const globals = globalThis as { sessionStorage?: Storage; WebSocket?: unknown };
  const hadSessionStorage = globals.sessionStorage !== undefined;
  const hadWebSocket = globals.WebSocket !== undefined;

  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let medplum: MedplumClient;
  const family = `Sweep${randomUUID().slice(0, 8)}`;
  const system = 'https://hearth.example/sweep';

  beforeAll(async () => {
    if (!hadSessionStorage) globals.sessionStorage = new MemoryStorage();
    if (!hadWebSocket) globals.WebSocket = WebSocket;
    owner = await registerProjectOwner();
    medplum = new MedplumClient({ baseUrl: baseUrl(), fetch: globalThis.fetch.bind(globalThis) });
  });

  afterAll(() => {
    if (!hadSessionStorage) delete globals.sessionStorage;
    if (!hadWebSocket) delete globals.WebSocket;
  });

  it('signs in with email and password through startLogin + processCode (PKCE) and knows the profile', async () => {
    // Gap (auth, not changed here): outside a browser the client's own startPkce() cannot hash
    // (it base64-encodes with window.btoa) and falls back to the `plain` method, which this server
    // refuses on purpose (S256 only, as SMART App Launch 2.0 requires). In a browser it sends S256.
    const plain = await refusal(medplum.startLogin({ email: owner.email, password: owner.password }));
    expect(plain.issue?.[0]?.details?.text).toBe('codeChallengeMethod must be S256');
    expect(plain.issue?.[0]?.expression).toEqual(['codeChallengeMethod']);

    // So the test does what startPkce does in a browser: an S256 challenge sent with the login,
    // and its verifier left in sessionStorage, where processCode() takes it from.
    const { verifier, challenge } = pkcePair();
    sessionStorage.setItem('codeVerifier', verifier);
    const answer = await medplum.startLogin({
      email: owner.email,
      password: owner.password,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
    });
    expect(answer.login).toBeDefined();
    expect(typeof answer.code).toBe('string');
    const profile = await medplum.processCode(answer.code as string);
    expect(profile.resourceType).toBe('Practitioner');
    expect(medplum.getProfile()?.id).toBe(profile.id);
    expect(`Practitioner/${medplum.getProfile()?.id}`).toBe(owner.tokens.profile.reference);
    expect(medplum.getProject()?.id).toBe(owner.projectId);
    expect(medplum.isAuthenticated()).toBe(true);
    // auth/me, which the client reads after the token: the owner's membership, as project admin.
    expect(medplum.getProjectMembership()?.profile?.reference).toBe(owner.tokens.profile.reference);
    expect(medplum.isProjectAdmin()).toBe(true);

    // The code is single-use: a second exchange, with the right verifier, gets nothing.
    const again = new MedplumClient({ baseUrl: baseUrl(), fetch: globalThis.fetch.bind(globalThis) });
    expect((await refusal(again.processCode(answer.code as string))).issue?.[0]?.severity).toBe('error');
    expect(again.getAccessToken()).toBeUndefined();
    // And a replayed code ends the session it opened (RFC 6749 §4.1.2): the first client's token stops working.
    const ended = await fetch(`${baseUrl()}auth/me`, {
      headers: { Authorization: `Bearer ${medplum.getAccessToken()}` },
    });
    expect(ended.status).toBe(401);
    // The rest of the sweep signs in again, as a client whose session ended would.
    const second = pkcePair();
    sessionStorage.setItem('codeVerifier', second.verifier);
    const relogin = await medplum.startLogin({
      email: owner.email,
      password: owner.password,
      codeChallenge: second.challenge,
      codeChallengeMethod: 'S256',
    });
    await medplum.processCode(relogin.code as string);
    expect(medplum.isAuthenticated()).toBe(true);
    // A fresh code with another verifier than its challenge's gets nothing either.
    const fresh = await again.startLogin({
      email: owner.email,
      password: owner.password,
      codeChallenge: pkcePair().challenge,
      codeChallengeMethod: 'S256',
    });
    expect((await refusal(again.processCode(fresh.code as string))).issue?.[0]?.severity).toBe('error');
    expect(again.getAccessToken()).toBeUndefined();

    // A wrong password is refused with the server's reason; nothing is signed in.
    const other = new MedplumClient({ baseUrl: baseUrl(), fetch: globalThis.fetch.bind(globalThis) });
    const refused = await refusal(
      other.startLogin({
        email: owner.email,
        password: 'not the password',
        codeChallenge: challenge,
        codeChallengeMethod: 'S256',
      }),
    );
    expect(refused.issue?.[0]?.details?.text).toBe('Email or password is invalid');
    expect(refused.issue?.[0]?.expression).toEqual(['password']);
    expect(other.getProfile()).toBeUndefined();
  });

  it('creates, reads, updates, patches and deletes a resource', async () => {
    const created = await medplum.createResource<Patient>({
      resourceType: 'Patient',
      name: [{ family, given: ['Crud'] }],
      birthDate: '1970-01-01',
    });
    expect(created.id).toBeDefined();
    expect(created.meta?.versionId).toBeDefined();

    const read = await medplum.readResource('Patient', created.id);
    expect(read.name?.[0].given).toEqual(['Crud']);

    const updated = await medplum.updateResource<Patient>({ ...read, gender: 'female' });
    expect(updated.gender).toBe('female');
    expect(updated.meta?.versionId).not.toBe(created.meta?.versionId);

    const patched = await medplum.patchResource('Patient', created.id, [
      { op: 'test', path: '/gender', value: 'female' },
      { op: 'replace', path: '/birthDate', value: '1971-02-03' },
      { op: 'add', path: '/name/0/given/-', value: 'Patched' },
    ]);
    expect(patched.birthDate).toBe('1971-02-03');
    expect(patched.name?.[0].given).toEqual(['Crud', 'Patched']);
    // A failed `test` op changes nothing and says why.
    const failedTest = await refusal(
      medplum.patchResource('Patient', created.id, [
        { op: 'test', path: '/gender', value: 'male' },
        { op: 'replace', path: '/birthDate', value: '1999-09-09' },
      ]),
    );
    expect(failedTest.issue?.[0]).toMatchObject({
      severity: 'error',
      code: 'conflict',
      details: { text: 'Test failed: /gender is not "male"' },
    });
    expect(
      (await http<Patient>('GET', `fhir/R4/Patient/${created.id}`, { token: medplum.getAccessToken() })).body.birthDate,
    ).toBe('1971-02-03');

    // History (newest first) and each version as it was.
    const history = await medplum.readHistory('Patient', created.id);
    expect(history.type).toBe('history');
    const versions = (history.entry ?? []).map((e) => e.resource?.meta?.versionId);
    expect(versions).toHaveLength(3);
    expect(versions[0]).toBe(patched.meta?.versionId);
    expect(versions[2]).toBe(created.meta?.versionId);
    const first = await medplum.readVersion('Patient', created.id, created.meta?.versionId as string);
    expect(first.birthDate).toBe('1970-01-01');
    expect(first.gender).toBeUndefined();

    // Another project's client sees none of it.
    const outsider = new MedplumClient({ baseUrl: baseUrl(), fetch: globalThis.fetch.bind(globalThis) });
    outsider.setAccessToken((await registerProjectOwner()).tokens.access_token);
    expect((await refusal(outsider.readResource('Patient', created.id))).issue?.[0]?.code).toBe('not-found');
    expect(await outsider.searchResources('Patient', { family })).toHaveLength(0);

    await medplum.deleteResource('Patient', created.id);
    const gone = await http('GET', `fhir/R4/Patient/${created.id}`, { token: medplum.getAccessToken() });
    expect(gone.status).toBe(410);
    // Read through the client: refused as deleted (not served from its cache).
    const afterDelete = await refusal(medplum.readResource('Patient', created.id, { cache: 'no-cache' }));
    expect(afterDelete.issue?.[0]?.code).toBe('deleted');
  });

  it('searches: search, searchOne, searchResources with _include/_count/_sort, searchResourcePages', async () => {
    // A family of its own: `family` matches by prefix, and other tests add patients of theirs.
    const family = `Pages${randomUUID().slice(0, 8)}`;
    const patients: Patient[] = [];
    for (const [given, birthDate] of [
      ['Ann', '1980-01-01'],
      ['Bea', '1990-01-01'],
      ['Cat', '2000-01-01'],
      ['Dot', '2010-01-01'],
      ['Eve', '2020-01-01'],
    ]) {
      patients.push(
        await medplum.createResource<Patient>({
          resourceType: 'Patient',
          name: [{ family, given: [given] }],
          birthDate,
          identifier: [{ system, value: `${family}-${given}` }],
        }),
      );
    }

    const bundle = await medplum.search('Patient', { family, _sort: 'birthdate' });
    expect(bundle.type).toBe('searchset');
    expect(bundle.entry?.map((e) => e.resource?.name?.[0].given?.[0])).toEqual(['Ann', 'Bea', 'Cat', 'Dot', 'Eve']);

    const one = await medplum.searchOne('Patient', { identifier: `${system}|${family}-Cat` });
    expect(one?.id).toBe(patients[2].id);
    expect(await medplum.searchOne('Patient', { identifier: `${system}|nobody` })).toBeUndefined();

    const subject = patients[0];
    for (const [value, date] of [
      [1, '2024-01-01'],
      [2, '2024-03-01'],
      [3, '2024-02-01'],
    ] as const) {
      await medplum.createResource<Observation>({
        resourceType: 'Observation',
        status: 'final',
        code: { text: 'sweep' },
        subject: { reference: `Patient/${subject.id}` },
        effectiveDateTime: date,
        valueQuantity: { value },
      });
    }
    const observations = await medplum.searchResources('Observation', {
      subject: `Patient/${subject.id}`,
      _include: 'Observation:subject',
      _count: '2',
      _sort: '-date',
    });
    // The matches are the two newest; the included patient comes with them, marked as included.
    const matches = observations.bundle.entry?.filter((e) => e.search?.mode === 'match') ?? [];
    expect(matches.map((e) => (e.resource as Observation).valueQuantity?.value)).toEqual([2, 3]);
    const included = observations.bundle.entry?.filter((e) => e.search?.mode === 'include') ?? [];
    expect(included.map((e) => e.resource?.id)).toEqual([subject.id]);
    expect(observations.bundle.link?.some((l) => l.relation === 'next')).toBe(true);

    // Async iteration over several pages of two: every patient once, in order.
    const pages: string[][] = [];
    for await (const page of medplum.searchResourcePages('Patient', { family, _count: 2, _sort: 'birthdate' })) {
      pages.push(page.map((p) => p.name?.[0].given?.[0] as string));
    }
    expect(pages).toEqual([['Ann', 'Bea'], ['Cat', 'Dot'], ['Eve']]);
    // Without _count the client asks for pages of 1000: one page here.
    let pageCount = 0;
    for await (const page of medplum.searchResourcePages('Patient', { family })) {
      pageCount++;
      expect(page).toHaveLength(5);
    }
    expect(pageCount).toBe(1);

    // A count without the entries (what Medplum's SearchControl shows), and a query string.
    const counted = await medplum.search('Patient', { family, _total: 'accurate', _count: '0' });
    expect(counted.total).toBe(5);
    expect(counted.entry ?? []).toHaveLength(0);
    expect((await medplum.searchResources('Patient', `family=${family}&birthdate=ge2000-01-01`)).length).toBe(3);
  });

  it('auto-batches concurrent reads into one batch Bundle (autoBatchTime), a missing one refused alone', async () => {
    const patient = await medplum.createResource<Patient>({ resourceType: 'Patient', name: [{ family }] });
    const requests: string[] = [];
    const batcher = new MedplumClient({
      baseUrl: baseUrl(),
      autoBatchTime: 50,
      fetch: (input: RequestInfo | URL, init?: RequestInit) => {
        requests.push(`${init?.method ?? 'GET'} ${String(input)}`);
        return globalThis.fetch(input, init);
      },
    });
    batcher.setAccessToken(medplum.getAccessToken() as string);
    const [found, missing, profile] = await Promise.allSettled([
      batcher.readResource('Patient', patient.id),
      batcher.readResource('Patient', randomUUID()),
      batcher.readResource('Practitioner', medplum.getProfile()?.id as string),
    ]);
    expect(requests).toEqual([`POST ${baseUrl()}fhir/R4`]);
    expect(found.status === 'fulfilled' && found.value.id).toBe(patient.id);
    expect(missing.status === 'rejected' && (missing.reason as OperationOutcomeError).outcome.issue?.[0]?.code).toBe(
      'not-found',
    );
    expect(profile.status === 'fulfilled' && profile.value.id).toBe(medplum.getProfile()?.id);
  });

  it('creates only if none exists (If-None-Exist) and upserts', async () => {
    const value = randomUUID();
    const body: Patient = { resourceType: 'Patient', identifier: [{ system, value }], name: [{ family }] };
    const made = await medplum.createResourceIfNoneExist(body, `identifier=${system}|${value}`);
    const again = await medplum.createResourceIfNoneExist(
      { ...body, name: [{ family: 'Other' }] },
      `identifier=${system}|${value}`,
    );
    expect(again.id).toBe(made.id);
    // The existing one is answered untouched.
    expect(again.name?.[0].family).toBe(family);

    const upserted = await medplum.upsertResource({ ...body, gender: 'other' }, { identifier: `${system}|${value}` });
    expect(upserted.id).toBe(made.id);
    expect(upserted.gender).toBe('other');
    const fresh = await medplum.upsertResource(
      { ...body, identifier: [{ system, value: `${value}-2` }] },
      { identifier: `${system}|${value}-2` },
    );
    expect(fresh.id).not.toBe(made.id);
  });

  it('executes batch and transaction bundles', async () => {
    const existing = await medplum.createResource<Patient>({ resourceType: 'Patient', name: [{ family }] });
    const batch = await medplum.executeBatch({
      resourceType: 'Bundle',
      type: 'batch',
      entry: [
        { request: { method: 'POST', url: 'Patient' }, resource: { resourceType: 'Patient', name: [{ family }] } },
        { request: { method: 'GET', url: `Patient/${existing.id}` } },
        { request: { method: 'GET', url: `Patient/${randomUUID()}` } },
      ],
    });
    expect(batch.type).toBe('batch-response');
    expect(batch.entry?.map((e) => e.response?.status.split(' ')[0])).toEqual(['201', '200', '404']);
    expect(batch.entry?.[1].resource?.id).toBe(existing.id);

    const patientUrn = `urn:uuid:${randomUUID()}`;
    const transaction = await medplum.executeBatch({
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        {
          fullUrl: patientUrn,
          request: { method: 'POST', url: 'Patient' },
          resource: { resourceType: 'Patient', name: [{ family, given: ['Tx'] }] },
        },
        {
          request: { method: 'POST', url: 'Observation' },
          resource: {
            resourceType: 'Observation',
            status: 'final',
            code: { text: 'tx' },
            subject: { reference: patientUrn },
          },
        },
      ],
    });
    expect(transaction.type).toBe('transaction-response');
    const txPatient = transaction.entry?.[0].resource as Patient;
    const txObservation = transaction.entry?.[1].resource as Observation;
    expect(txObservation.subject?.reference).toBe(`Patient/${txPatient.id}`);

    // A transaction with a bad entry writes none of its entries.
    const marker = randomUUID();
    const failed = await refusal(
      medplum.executeBatch({
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [
          {
            request: { method: 'POST', url: 'Patient' },
            resource: { resourceType: 'Patient', identifier: [{ system, value: marker }] },
          },
          {
            request: { method: 'POST', url: 'Observation' },
            resource: {
              resourceType: 'Observation',
              status: 'not-a-status',
              code: { text: 'x' },
            } as unknown as Observation,
          },
        ],
      }),
    );
    expect(failed.issue?.[0]).toMatchObject({ severity: 'error', expression: ['Bundle.entry[1].resource.status'] });
    expect(await medplum.searchResources('Patient', { identifier: `${system}|${marker}` })).toHaveLength(0);
  });

  it('reads a patient with everything, GraphQL, readReference', async () => {
    const patient = await medplum.createResource<Patient>({
      resourceType: 'Patient',
      name: [{ family, given: ['Ev'] }],
    });
    const observation = await medplum.createResource<Observation>({
      resourceType: 'Observation',
      status: 'final',
      code: { text: 'everything' },
      subject: { reference: `Patient/${patient.id}` },
    });
    const everything = await medplum.readPatientEverything(patient.id);
    expect(everything.type).toBe('searchset');
    const ids = everything.entry?.map((e) => `${e.resource?.resourceType}/${e.resource?.id}`);
    expect(ids).toContain(`Patient/${patient.id}`);
    expect(ids).toContain(`Observation/${observation.id}`);

    // The International Patient Summary: a document whose Composition is about this patient.
    const summary = await medplum.readPatientSummary(patient.id as string);
    expect(summary.type).toBe('document');
    const composition = summary.entry?.[0]?.resource;
    expect(composition?.resourceType === 'Composition' && composition.subject?.reference).toBe(`Patient/${patient.id}`);
    expect(summary.entry?.[1]?.resource?.id).toBe(patient.id);

    const result = await medplum.graphql(
      `query Sweep($id: ID!, $subject: String) {
        Patient(id: $id) { id name { given } }
        ObservationList(subject: $subject) { id subject { reference resource { ... on Patient { id } } } }
      }`,
      'Sweep',
      { id: patient.id, subject: `Patient/${patient.id}` },
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.Patient.name[0].given).toEqual(['Ev']);
    expect(result.data.ObservationList.map((o: { id: string }) => o.id)).toEqual([observation.id]);
    expect(result.data.ObservationList[0].subject.resource.id).toBe(patient.id);

    // Reverse references (FHIR GraphQL, as Medplum apps use them): the patient's Observations from the patient.
    const reverse = await medplum.graphql(
      `{ Patient(id: "${patient.id}") { id ObservationList(_reference: subject) { id } } }`,
    );
    expect(reverse.errors).toBeUndefined();
    expect(reverse.data.Patient.ObservationList.map((o: { id: string }) => o.id)).toEqual([observation.id]);

    const subject = await medplum.readReference<Patient>(observation.subject as { reference: string });
    expect(subject.id).toBe(patient.id);
  });

  it('validates a resource and expands a value set', async () => {
    const ok = await medplum.validateResource<Patient>({ resourceType: 'Patient', name: [{ family }] });
    expect(ok.resourceType).toBe('OperationOutcome');
    expect(ok.issue?.filter((i) => i.severity === 'error' || i.severity === 'fatal') ?? []).toHaveLength(0);

    // An invalid resource: Hearth answers 200 with the problems (FHIR's $validate: the outcome
    // is the answer), so the client resolves with them. Medplum's own server answers 400 instead,
    // for which the client throws: an app must look at the issues, not only catch.
    const bad = await medplum.validateResource({ resourceType: 'Patient', gender: 'nope' } as unknown as Patient);
    expect(bad.issue).toEqual([
      expect.objectContaining({ severity: 'error', code: 'value', expression: ['Patient.gender'] }),
    ]);

    const expanded = await medplum.valueSetExpand({
      url: 'http://hl7.org/fhir/ValueSet/administrative-gender',
      filter: 'fem',
    });
    expect(expanded.expansion?.contains?.map((c) => c.code)).toEqual(['female']);
  });

  it('creates a Binary and an Attachment and reads them back', async () => {
    const binary = await medplum.createBinary({
      data: 'hello sweep',
      contentType: 'text/plain',
      filename: 'hello.txt',
    });
    expect(binary.resourceType).toBe('Binary');
    expect(binary.contentType).toBe('text/plain');
    // As Medplum does, the answer carries a signed URL of the content, which download() fetches.
    expect(binary.url).toMatch(/\/storage\//);
    expect(await (await medplum.download(binary.url as string)).text()).toBe('hello sweep');
    // Read as a FHIR resource (the client asks for JSON), the content comes base64-encoded.
    const read: Binary = await medplum.readResource('Binary', binary.id);
    expect(read.contentType).toBe('text/plain');
    expect(Buffer.from(read.data as string, 'base64').toString()).toBe('hello sweep');

    const attachment = await medplum.createAttachment({
      data: 'attached text',
      contentType: 'text/plain',
      filename: 'note.txt',
    });
    expect(attachment.contentType).toBe('text/plain');
    expect(attachment.title).toBe('note.txt');
    expect(attachment.url).toBeDefined();
    expect(await (await medplum.download(attachment.url as string)).text()).toBe('attached text');
  });

  it('subscribes to criteria over the websocket and hears a create', async () => {
    const criteria = 'Communication?status=in-progress';
    const emitter = medplum.subscribeToCriteria(criteria);
    const manager = medplum.getSubscriptionManager();
    try {
      const { subscriptionId } = await nextEvent<{ subscriptionId: string }>(emitter, 'connect');
      // The client made the websocket Subscription in this project through the REST API.
      const subscription = await medplum.readResource('Subscription', subscriptionId);
      expect(subscription.criteria).toBe(criteria);
      expect(subscription.channel.type).toBe('websocket');

      const heard: Bundle[] = [];
      emitter.addEventListener('message', (event) => heard.push(event.payload));
      // A write that does not match the criteria is not announced.
      await medplum.createResource<Communication>({ resourceType: 'Communication', status: 'completed' });
      const sent = await medplum.createResource<Communication>({
        resourceType: 'Communication',
        status: 'in-progress',
        payload: [{ contentString: 'ping' }],
      });
      const notification = await nextEvent<Bundle>(emitter, 'message', (bundle) =>
        (bundle.entry ?? []).some((e) => e.resource?.id === sent.id),
      );
      expect(notification.type).toBe('history');
      const status = notification.entry?.[0].resource as SubscriptionStatus;
      expect(status.type).toBe('event-notification');
      expect(status.subscription.reference).toBe(`Subscription/${subscriptionId}`);
      expect(status.notificationEvent?.[0].focus?.reference).toBe(`Communication/${sent.id}`);
      expect(heard).toHaveLength(1);

      // The client pings every 5 s and reconnects when no pong comes back before the next ping:
      // the server's pong keeps a long-lived subscription on one socket.
      const pong = new Promise<void>((resolve) => {
        const socket = manager.getWebSocket();
        const listener = (event: { data?: unknown }) => {
          if (typeof event.data === 'string' && JSON.parse(event.data).type === 'pong') {
            socket.removeEventListener('message', listener);
            resolve();
          }
        };
        socket.addEventListener('message', listener);
      });
      await expect(Promise.race([pong.then(() => 'pong'), delay(8000).then(() => 'none')])).resolves.toBe('pong');
    } finally {
      medplum.unsubscribeFromCriteria(criteria);
      manager.closeWebSocket();
    }
  });

  it('refreshes with the refresh token, then signs out (the old tokens are refused)', async () => {
    const before = medplum.getAccessToken() as string;
    // A grace period longer than the token's remaining life makes the client treat it as expiring.
    const remainingMs = (parseJWTPayload(before).exp as number) * 1000 - Date.now();
    await medplum.refreshIfExpired(remainingMs + 60_000);
    const after = medplum.getAccessToken() as string;
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    const profile = medplum.getProfile() as Practitioner;
    expect((await medplum.readResource('Practitioner', profile.id as string)).id).toBe(profile.id);

    const refreshToken = medplum.getActiveLogin()?.refreshToken as string;
    expect(refreshToken).toBeDefined();
    await medplum.signOut();
    expect(medplum.getAccessToken()).toBeUndefined();
    expect(medplum.getProfile()).toBeUndefined();
    // The server ended the sign-in: the access token is refused at once, the refresh token too.
    expect((await http('GET', `fhir/R4/Practitioner/${profile.id}`, { token: after })).status).toBe(401);
    const refresh = await tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken });
    expect(refresh.status).toBe(400);
    expect(refresh.body.error).toBe('invalid_grant');
    // A client still holding the token gets the 401, which it turns into its `unauthorized` outcome.
    const stale = new MedplumClient({ baseUrl: baseUrl(), fetch: globalThis.fetch.bind(globalThis) });
    stale.setAccessToken(after);
    const refused = await refusal(stale.readResource('Practitioner', profile.id as string));
    expect(refused.issue?.[0]?.code).toBe('login');
    // And the signed-out client itself sends no token any more: refused the same way.
    expect((await refusal(medplum.readResource('Practitioner', profile.id as string))).issue?.[0]?.code).toBe('login');
  });
});
