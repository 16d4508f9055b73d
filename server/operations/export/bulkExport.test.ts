import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, http, issueExpressions, issueText } from '../../../tests/integration/fhirClient';
import { registerProjectOwner, signInWithScope } from '../../../tests/integration/accounts';
import { signIn } from '../../../tests/integration/signIn';
import { inviteMember } from '../../admin/projectMembers.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */
const respondAsync = { prefer: 'respond-async' };

interface Manifest {
  transactionTime: string;
  request: string;
  requiresAccessToken: boolean;
  output: { type: string; url: string; count: number }[];
}

/** Follows the status URL until the manifest is there; answers it with the 202s seen on the way. */
async function awaitManifest(statusUrl: string, token: string): Promise<{ manifest: Manifest; progress: string[] }> {
  const progress: string[] = [];
  for (let attempt = 0; attempt < 300; attempt++) {
    const status = await http<any>('GET', statusUrl, { token });
    if (status.status === 200) return { manifest: status.body as Manifest, progress };
    expect(status.status, JSON.stringify(status.body)).toBe(202);
    progress.push(status.headers.get('x-progress') ?? '');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('export did not finish');
}

/** The NDJSON file of one output, as parsed lines (fetched with the bearer token, as the manifest says). */
async function ndjson(url: string, token: string): Promise<any[]> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: '*/*' } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('application/fhir+ndjson');
  const text = await response.text();
  expect(text.endsWith('\n')).toBe(true);
  return text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
}

async function exportAll(path: string, token: string) {
  const kickOff = await http<any>('GET', path, { token, headers: respondAsync });
  expect(kickOff.status, JSON.stringify(kickOff.body)).toBe(202);
  const statusUrl = kickOff.headers.get('content-location') as string;
  expect(statusUrl).toMatch(/\/fhir\/R4\/bulkdata\/export\/[0-9a-f-]+$/);
  const { manifest, progress } = await awaitManifest(statusUrl, token);
  const files: Record<string, any[]> = {};
  for (const output of manifest.output) files[output.type] = await ndjson(output.url, token);
  return { manifest, progress, files, statusUrl };
}

const idsOf = (resources: any[] | undefined) => (resources ?? []).map((resource) => resource.id as string).sort();

describe('bulk $export', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  let token: string;
  const ids: Record<string, string> = {};
  const create = async (body: Record<string, unknown>, as = token) => {
    const answer = await http<any>('POST', `fhir/R4/${body.resourceType as string}`, { token: as, body });
    expect(answer.status).toBe(201);
    return answer.body.id as string;
  };

  beforeAll(async () => {
    owner = await registerProjectOwner('Export Clinic');
    token = owner.tokens.access_token;
    ids.p1 = await create({ resourceType: 'Patient', name: [{ family: 'ExportOne' }] });
    ids.p2 = await create({ resourceType: 'Patient', name: [{ family: 'ExportTwo' }] });
    const observation = (patient: string, status: string) =>
      create({
        resourceType: 'Observation',
        status,
        code: { text: 'Weight' },
        subject: { reference: `Patient/${patient}` },
      });
    ids.o1 = await observation(ids.p1, 'final');
    ids.o2 = await observation(ids.p1, 'preliminary');
    ids.o3 = await observation(ids.p2, 'final');
    ids.practitioner = await create({ resourceType: 'Practitioner', name: [{ family: 'NotInCompartments' }] });
    ids.group = await create({
      resourceType: 'Group',
      type: 'person',
      actual: true,
      member: [{ entity: { reference: `Patient/${ids.p1}` } }],
    });
    const stranger = await registerProjectOwner('Export Elsewhere');
    ids.foreign = await create(
      { resourceType: 'Patient', name: [{ family: 'Foreign' }] },
      stranger.tokens.access_token,
    );
  });

  it('exports everything of the project to NDJSON files and answers the manifest', async () => {
    const { manifest, progress, files } = await exportAll('fhir/R4/$export', token);
    expect(manifest.requiresAccessToken).toBe(true);
    expect(manifest.request).toBe(`${baseUrl()}fhir/R4/$export`);
    expect(Date.parse(manifest.transactionTime)).not.toBeNaN();
    for (const seen of progress) expect(seen).not.toBe('');
    expect(idsOf(files.Patient)).toEqual([ids.p1, ids.p2].sort());
    expect(idsOf(files.Observation)).toEqual([ids.o1, ids.o2, ids.o3].sort());
    expect(idsOf(files.Practitioner)).toContain(ids.practitioner);
    expect(files.Patient.every((patient) => patient.resourceType === 'Patient')).toBe(true);
    expect(manifest.output.find((output) => output.type === 'Observation')?.count).toBe(3);
    // Nothing of another project, and none of the shared definitions.
    expect(JSON.stringify(files)).not.toContain(ids.foreign);
    expect(files.StructureDefinition).toBeUndefined();
  });

  it('limits by _type and _since', async () => {
    const typed = await exportAll('fhir/R4/$export?_type=Observation', token);
    expect(Object.keys(typed.files)).toEqual(['Observation']);
    const future = await exportAll('fhir/R4/$export?_since=2999-01-01T00:00:00Z', token);
    expect(future.manifest.output).toEqual([]);
  });

  it('Patient/$export exports the patient compartments, Group/{id}/$export its members only', async () => {
    const patients = await exportAll('fhir/R4/Patient/$export', token);
    expect(patients.files.Practitioner).toBeUndefined();
    expect(idsOf(patients.files.Observation)).toEqual([ids.o1, ids.o2, ids.o3].sort());
    const group = await exportAll(`fhir/R4/Group/${ids.group}/$export`, token);
    expect(idsOf(group.files.Patient)).toEqual([ids.p1]);
    expect(idsOf(group.files.Observation)).toEqual([ids.o1, ids.o2].sort());
  });

  it('exports only what the caller may read', async () => {
    const member = await inviteMember(token, owner.projectId, {
      policy: {
        resource: [{ resourceType: 'Observation', criteria: 'Observation?status=final' }, { resourceType: 'Binary' }],
      },
    });
    const { files } = await exportAll('fhir/R4/$export', member.token);
    expect(Object.keys(files)).toEqual(['Observation']);
    expect(idsOf(files.Observation)).toEqual([ids.o1, ids.o3].sort());
    // Another caller cannot follow someone else's status URL.
    const kickOff = await http<any>('GET', 'fhir/R4/$export?_type=Patient', { token, headers: respondAsync });
    const statusUrl = kickOff.headers.get('content-location') as string;
    expect((await http('GET', statusUrl, { token: member.token })).status).toBe(404);
    await awaitManifest(statusUrl, token);
  });

  it("keeps an export's files to whom may see the job: not a Binary for every member who may read Binaries", async () => {
    // The attack: an export holds what its caller may read. Stored as Binaries of the project, a
    // member held to final Observations, but allowed Binaries, listed and read the admin's file
    // with every Observation of the project.
    const { manifest, statusUrl } = await exportAll('fhir/R4/$export?_type=Observation', token);
    const [observations] = manifest.output;
    const member = await inviteMember(token, owner.projectId, {
      policy: {
        resource: [{ resourceType: 'Observation', criteria: 'Observation?status=final' }, { resourceType: 'Binary' }],
      },
    });
    const binaries = await http<any>('GET', 'fhir/R4/Binary?_count=1000', { token: member.token });
    expect(binaries.status).toBe(200);
    for (const entry of binaries.body.entry ?? []) {
      const read = await fetch(`${baseUrl()}fhir/R4/Binary/${entry.resource.id as string}`, {
        headers: { authorization: `Bearer ${member.token}`, accept: '*/*' },
      });
      expect(await read.text()).not.toContain(ids.o2);
    }
    // The manifest's URL is the job's, and the job is not the member's.
    expect(observations.url).toBe(`${statusUrl}/Observation.ndjson`);
    const stolen = await fetch(observations.url, { headers: { authorization: `Bearer ${member.token}` } });
    expect(stolen.status).toBe(404);
    expect(await stolen.text()).not.toContain(ids.o2);
    expect((await http('GET', observations.url, { token: null })).status).toBe(401);
    // The caller itself downloads it (ndjson() checks the answer).
    expect(idsOf(await ndjson(observations.url, token))).toEqual([ids.o1, ids.o2, ids.o3].sort());
    expect((await http('GET', `${statusUrl}/Patient.ndjson`, { token })).status).toBe(404);
    // A cancelled job's files are gone with it.
    expect((await http('DELETE', statusUrl, { token })).status).toBe(202);
    expect((await http('GET', observations.url, { token })).status).toBe(404);
  });

  it("does not hand a job's manifest or files to an app an admin signed in to with narrower scopes", async () => {
    // The attack: job files are no longer Binaries (which scopes gate), so the job's own check
    // must hold scopes too: a project admin sees every member's job, but an app the admin
    // launched with user/Observation.read is not the admin.
    const { manifest, statusUrl } = await exportAll('fhir/R4/$export?_type=Patient', token);
    const [patients] = manifest.output;
    const app = await signInWithScope(owner.email, owner.password, 'user/Observation.read');
    expect((await http('GET', statusUrl, { token: app.access_token })).status).toBe(404);
    expect((await http('GET', patients.url, { token: app.access_token })).status).toBe(404);
    // Another session of the admin, not narrowed, sees the job as the admin's.
    const session = await signIn(baseUrl(), owner.email, owner.password);
    expect(idsOf(await ndjson(patients.url, session.access_token))).toContain(ids.p1);
  });

  it('lets a patient download their own export, which holds their compartment only', async () => {
    const patient = await inviteMember(token, owner.projectId, {
      resourceType: 'Patient',
      policy: { resource: [{ resourceType: '*', compartment: { reference: '%profile' } }] },
    });
    const self = (patient.membership.profile as { reference: string }).reference;
    const own = await create({
      resourceType: 'Observation',
      status: 'final',
      code: { text: 'Own weight' },
      subject: { reference: self },
    });
    const { files } = await exportAll('fhir/R4/Patient/$export', patient.token);
    expect(idsOf(files.Patient)).toEqual([self.split('/')[1]]);
    expect(idsOf(files.Observation)).toEqual([own]);
  });

  it('answers 429 to a kick-off while the same login still runs an export', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => http<any>('GET', 'fhir/R4/$export', { token, headers: respondAsync })),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.every((status) => status === 202 || status === 429)).toBe(true);
    const refused = answers.find((answer) => answer.status === 429);
    expect(refused, statuses.join()).toBeDefined();
    expect(refused?.headers.get('retry-after')).toBe('10');
    expect(issueText(refused?.body)).toContain('still running');
    for (const answer of answers.filter((a) => a.status === 202)) {
      await awaitManifest(answer.headers.get('content-location') as string, token);
    }
  });

  it('DELETE on the status URL cancels the job', async () => {
    const kickOff = await http<any>('GET', 'fhir/R4/$export', { token, headers: respondAsync });
    const statusUrl = kickOff.headers.get('content-location') as string;
    const cancelled = await http<any>('DELETE', statusUrl, { token });
    expect(cancelled.status).toBe(202);
    const after = await http<any>('GET', statusUrl, { token });
    expect(after.status).toBe(404);
    expect(issueText(after.body)).toContain('cancelled');
    expect((await http('DELETE', statusUrl, { token })).status).toBe(404);
  });

  it('refuses a kick-off without Prefer: respond-async, bad parameters and unknown groups', async () => {
    const noPrefer = await http<any>('GET', 'fhir/R4/$export', { token });
    expect(noPrefer.status).toBe(400);
    expect(issueText(noPrefer.body)).toContain('Prefer: respond-async');
    const badType = await http<any>('GET', 'fhir/R4/$export?_type=Nope', { token, headers: respondAsync });
    expect(badType.status).toBe(400);
    expect(issueExpressions(badType.body)).toEqual(['_type']);
    const badSince = await http<any>('GET', 'fhir/R4/Patient/$export?_since=soon', { token, headers: respondAsync });
    expect(badSince.status).toBe(400);
    const badFormat = await http<any>('GET', 'fhir/R4/$export?_outputFormat=text/csv', {
      token,
      headers: respondAsync,
    });
    expect(badFormat.status).toBe(400);
    expect((await http('GET', 'fhir/R4/Group/no-such-group/$export', { token, headers: respondAsync })).status).toBe(
      404,
    );
    expect((await http('GET', 'fhir/R4/bulkdata/export/no-such-job', { token })).status).toBe(404);
    expect((await http('GET', 'fhir/R4/$export', { token: null, headers: respondAsync })).status).toBe(401);
  });
});
