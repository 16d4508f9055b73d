import type { Bot, GraphDefinition, Observation, Patient, Subscription } from '@medplum/fhirtypes';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FhirClient } from '../../../data-provider/client';
import { OperationOutcomeError } from '../../../data-provider/outcomes';
import { createFhirDataProvider } from '../../../data-provider/react-admin';
import { uniqueEmail } from '../accounts';
import { http } from '../fhirClient';
import { ownerClient, signInWithClient, testClient } from './clientSession';

async function failure(promise: Promise<unknown>): Promise<OperationOutcomeError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OperationOutcomeError);
  return error as OperationOutcomeError;
}

/** The operation calls of spec §7 by our FhirClient, against the server's operation routes. */
describe('FhirClient against the server: operations and services', () => {
  let client: FhirClient;
  let owner: Awaited<ReturnType<typeof ownerClient>>['owner'];
  let patient: Patient;
  let observation: Observation;

  beforeAll(async () => {
    ({ client, owner } = await ownerClient());
    patient = await client.createResource<Patient>({ resourceType: 'Patient', name: [{ family: 'Operations' }] });
    observation = await client.createResource<Observation>({
      resourceType: 'Observation',
      status: 'final',
      code: { text: 'Heart rate' },
      subject: { reference: `Patient/${patient.id}` },
      valueQuantity: { value: 72, unit: '/min' },
    });
  });

  it('$validate: all-OK for a valid resource, the issues with their paths for an invalid one, nothing stored', async () => {
    const ok = await client.validateResource<Patient>({ resourceType: 'Patient', gender: 'female' });
    expect(ok.resourceType).toBe('OperationOutcome');
    expect(ok.issue.every((issue) => issue.severity !== 'error')).toBe(true);
    const before = (await client.search('Patient', { _total: 'accurate', _count: '0' })).total;
    let verdict;
    try {
      verdict = await client.validateResource({ resourceType: 'Patient', gender: 'sometimes' } as unknown as Patient);
    } catch (error) {
      // A server may answer an invalid resource with 400 and the outcome: both carry the issues.
      verdict = (error as OperationOutcomeError).outcome;
    }
    expect(verdict.issue.some((issue) => issue.severity === 'error')).toBe(true);
    expect(verdict.issue.flatMap((issue) => issue.expression ?? []).join()).toContain('gender');
    expect((await client.search('Patient', { _total: 'accurate', _count: '0' })).total).toBe(before);
  });

  it('the dataProvider validate wraps the same call', async () => {
    const provider = createFhirDataProvider(client);
    const verdict = await provider.validate('Patient', { data: { gender: 'male', lastUpdated: 'mirror' } });
    expect(verdict.data.issue.every((issue) => issue.severity !== 'error')).toBe(true);
  });

  it('Patient/$everything', async () => {
    const bundle = await client.readPatientEverything(patient.id as string);
    const keys = (bundle.entry ?? []).map((entry) => `${entry.resource?.resourceType}/${entry.resource?.id}`);
    expect(keys).toEqual(expect.arrayContaining([`Patient/${patient.id}`, `Observation/${observation.id}`]));
    expect((await failure(client.readPatientEverything('no-such-patient'))).status).toBe(404);
  });

  it('StructureDefinition/$expand-profile', async () => {
    const usCorePatient = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient';
    const bundle = await client.expandProfile(usCorePatient);
    const urls = (bundle.entry ?? []).map((entry) => entry.resource?.url);
    expect(urls[0]).toBe(usCorePatient);
    expect(urls).toContain('http://hl7.org/fhir/us/core/StructureDefinition/us-core-race');
    expect((await failure(client.expandProfile('http://example.org/no-such-profile'))).status).toBe(404);
  });

  it('$graph with a GraphDefinition name', async () => {
    const name = `client-graph-${Date.now()}`;
    await client.createResource<GraphDefinition>({
      resourceType: 'GraphDefinition',
      name,
      status: 'active',
      start: 'Patient',
      link: [{ target: [{ type: 'Observation', params: 'subject={ref}' }] }],
    });
    const bundle = await client.readGraph('Patient', patient.id as string, name);
    const keys = (bundle.entry ?? []).map((entry) => `${entry.resource?.resourceType}/${entry.resource?.id}`);
    expect(keys).toEqual([`Patient/${patient.id}`, `Observation/${observation.id}`]);
    expect((await failure(client.readGraph('Patient', patient.id as string, 'no-such-graph'))).message).toContain(
      'no-such-graph',
    );
  });

  it('bulk $export: the client follows the 202 answers until the manifest', async () => {
    const manifest = await client.bulkExport('Patient', 'Patient,Observation');
    expect(manifest.requiresAccessToken).toBe(true);
    const types = (manifest.output ?? []).map((output) => output.type).sort();
    expect(types).toEqual(['Observation', 'Patient']);
    const patientFile = manifest.output?.find((output) => output.type === 'Patient');
    const ndjson = await (await client.download(patientFile?.url as string)).text();
    const lines = ndjson
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Patient);
    expect(lines.map((line) => line.id)).toContain(patient.id);
  });

  it('Bot $execute by id and by identifier; a bot error is an outcome error with its message', async () => {
    const system = 'https://hearth.example/client-bots';
    const value = `echo-${Date.now()}`;
    const bot = await client.createResource<Bot>({
      resourceType: 'Bot',
      name: 'Echo',
      identifier: [{ system, value }],
      code: `exports.handler = async (medplum, event) => ({ echoed: event.input, type: event.contentType });`,
    });
    expect(await client.executeBot(bot.id as string, { hello: 'world' })).toEqual({
      echoed: { hello: 'world' },
      type: 'application/json',
    });
    expect(await client.executeBot({ system, value }, 'plain words', 'text/plain')).toEqual({
      echoed: 'plain words',
      type: 'text/plain',
    });
    const failing = await client.createResource<Bot>({
      resourceType: 'Bot',
      name: 'Failing',
      code: `exports.handler = async () => { throw new Error('Input is missing a patient'); };`,
    });
    const error = await failure(client.executeBot(failing.id as string, {}));
    expect(error.status).toBe(400);
    expect(error.message).toContain('Bot error: Input is missing a patient');
    expect((await failure(client.executeBot('', {}))).message).toBe('The bot id must not be empty');

    const provider = createFhirDataProvider(client);
    expect((await provider.executeBot({ bot: bot.id as string, body: [1, 2] })).data).toEqual({
      echoed: [1, 2],
      type: 'application/json',
    });
  });

  it('Binary upload with progress and the security context; attachment and Media; download', async () => {
    const progress: number[] = [];
    const binary = await client.createBinary({
      data: 'hello, binary',
      contentType: 'text/plain',
      filename: 'hello.txt',
      securityContext: { reference: `Patient/${patient.id}` },
      onProgress: (event) => progress.push(event.loaded),
    });
    expect(binary.id).toBeTruthy();
    expect(binary.securityContext?.reference).toBe(`Patient/${patient.id}`);
    expect(progress).toEqual([0, 13]);
    expect(await (await client.download(`Binary/${binary.id}`)).text()).toBe('hello, binary');

    const attachment = await client.createAttachment({
      data: new Uint8Array([1, 2, 3]),
      contentType: 'image/png',
      filename: 'x.png',
    });
    expect(attachment).toMatchObject({ contentType: 'image/png', title: 'x.png' });
    const bytes = new Uint8Array(await (await client.download(attachment.url as string)).arrayBuffer());
    expect([...bytes]).toEqual([1, 2, 3]);

    const media = await client.createMedia({
      data: 'scan',
      contentType: 'text/plain',
      filename: 'scan.txt',
      additionalFields: { subject: { reference: `Patient/${patient.id}` } },
    });
    expect(media.status).toBe('completed');
    expect(media.content.contentType).toBe('text/plain');
    const history = await client.readHistory('Media', media.id as string);
    expect(history.entry?.map((entry) => entry.resource?.status)).toEqual(['completed', 'preparation']);

    const provider = createFhirDataProvider(client);
    const uploaded = await provider.uploadAttachment({ data: 'via provider', contentType: 'text/plain' });
    expect(await (await client.download(uploaded.data.url as string)).text()).toBe('via provider');
  });

  it('a comment is a completed Communication from the signed-in profile', async () => {
    const comment = await client.createComment(observation, 'Looks fine');
    expect(comment).toMatchObject({
      resourceType: 'Communication',
      status: 'completed',
      basedOn: [{ reference: `Observation/${observation.id}` }],
      subject: { reference: `Patient/${patient.id}` },
      sender: { reference: `Practitioner/${client.getProfile()?.id}` },
      payload: [{ contentString: 'Looks fine' }],
    });
  });

  it('$get-ws-binding-token answers a token and the websocket address', async () => {
    const subscription = await client.createResource<Subscription>({
      resourceType: 'Subscription',
      status: 'active',
      reason: 'client test',
      criteria: 'Patient',
      channel: { type: 'websocket' },
    });
    const binding = await client.getSubscriptionBindingToken(subscription.id as string);
    expect(binding.token.length).toBeGreaterThan(20);
    expect(binding.websocketUrl).toBe(`${client.getBaseUrl().replace(/^http/, 'ws')}ws/subscriptions-r4`);
  });

  it('Agent $push is refused clearly: this server has no agents', async () => {
    const error = await failure(
      client.pushToAgent({ reference: 'Agent/a1' }, 'Device/d1', 'MSH|', 'x-application/hl7-v2+er7'),
    );
    expect(error.status).toBe(501);
    expect(error.message).toContain('This server has no agents');
  });

  it('e-mail: the answer says where the message went', async () => {
    // Sending e-mail is a Project feature only a super admin turns on (issue 14 item 11).
    const project = await http<Record<string, unknown>>('GET', `fhir/R4/Project/${owner.projectId}`);
    expect(
      (await http('PUT', `fhir/R4/Project/${owner.projectId}`, { body: { ...project.body, features: ['email'] } }))
        .status,
    ).toBe(200);
    const outcome = await client.sendEmail({ to: 'someone@example.org', subject: 'Hello', text: 'From the client' });
    expect(outcome.issue[0].details?.text).toContain('outbox');
  });

  it('key-value: set, get, delete; a missing key reads as undefined', async () => {
    const key = `client-key-${Date.now()}`;
    expect(await client.keyValue.get(key)).toBeUndefined();
    await client.keyValue.set(key, 'a value, with text');
    expect(await client.keyValue.get(key)).toBe('a value, with text');
    await client.keyValue.delete(key);
    expect(await client.keyValue.get(key)).toBeUndefined();
  });

  it('invite: the invited person can sign in to the project', async () => {
    const email = uniqueEmail('invited');
    const membership = await client.invite(owner.projectId, {
      resourceType: 'Practitioner',
      firstName: 'Ivy',
      lastName: 'Invited',
      email,
      password: 'invited password 12',
      sendEmail: false,
    });
    expect(membership.resourceType).toBe('ProjectMembership');
    expect(membership.profile?.reference).toMatch(/^Practitioner\//);
    const invited = testClient().client;
    await signInWithClient(invited, email, 'invited password 12');
    expect(invited.getProject()?.id).toBe(owner.projectId);
    expect(invited.isProjectAdmin()).toBe(false);
    // Not an admin: inviting is refused.
    const refused = await failure(
      invited.invite(owner.projectId, { resourceType: 'Patient', firstName: 'A', lastName: 'B', email: uniqueEmail() }),
    );
    expect(refused.status).toBe(403);
  });

  it("PDF creation is refused unless enabled: 'PDF creation not enabled'", async () => {
    expect((await failure(client.createPdf({ docDefinition: {} }))).message).toBe('PDF creation not enabled');
  });
});
