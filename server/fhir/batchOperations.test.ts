import { describe, expect, it } from 'vitest';
import { http, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner, signInWithScope } from '../../tests/integration/accounts';

interface Entry {
  resource?: { resourceType: string; id?: string; [key: string]: unknown };
  request?: { method: string; url: string };
  response?: { status: string; outcome?: unknown };
}
interface Bundle {
  resourceType: 'Bundle';
  type: string;
  entry: Entry[];
}

const batch = (...urls: string[]) => ({
  resourceType: 'Bundle',
  type: 'batch',
  entry: urls.map((url) => ({ request: { method: 'GET', url } })),
});

async function newPatient(token: string, family: string): Promise<string> {
  const created = await http<{ id: string }>('POST', 'fhir/R4/Patient', {
    token,
    body: { resourceType: 'Patient', name: [{ family }] },
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

describe('operations inside a batch', { timeout: 60_000 }, () => {
  it('answers each operation as its own request would (clients batch every GET, operations included)', async () => {
    const owner = await registerProjectOwner('Batch Operations Clinic');
    const token = owner.tokens.access_token;
    const patientId = await newPatient(token, 'Batched');
    const answer = await http<Bundle>('POST', 'fhir/R4', {
      token,
      body: batch(
        'ValueSet/$expand?url=http://hl7.org/fhir/ValueSet/administrative-gender',
        `Patient/${patientId}/$summary`,
        'CodeSystem/$lookup?system=http://terminology.hl7.org/CodeSystem/claim-type&code=institutional',
        `Patient/${patientId}`,
        `Patient/${patientId}/Observation?_count=5`,
      ),
    });
    expect(answer.status).toBe(200);
    expect(answer.body.entry.map((entry) => entry.response?.status)).toEqual(['200', '200', '200', '200', '200']);
    const [expansion, summary, lookup, read, compartment] = answer.body.entry.map((entry) => entry.resource!);
    // A compartment search, which was read as the Patient too.
    expect(compartment).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
    expect(expansion.resourceType).toBe('ValueSet');
    expect(JSON.stringify(expansion)).toContain('"code":"female"');
    // Before, the summary entry answered the Patient itself: the `$summary` segment was ignored.
    expect(summary).toMatchObject({ resourceType: 'Bundle', type: 'document' });
    expect(lookup.resourceType).toBe('Parameters');
    expect(JSON.stringify(lookup)).toContain('Institutional');
    expect(read).toMatchObject({ resourceType: 'Patient', id: patientId });
  });

  it("gives an operation in a batch no more than the caller has: another project's patient, a scoped app", async () => {
    const victim = await registerProjectOwner('Batch Victim Clinic');
    const victimPatient = await newPatient(victim.tokens.access_token, 'Victim');
    const attacker = await registerProjectOwner('Batch Attacker Clinic');
    const direct = await http('GET', `fhir/R4/Patient/${victimPatient}/$summary`, {
      token: attacker.tokens.access_token,
    });
    const batched = await http<Bundle>('POST', 'fhir/R4', {
      token: attacker.tokens.access_token,
      body: batch(`Patient/${victimPatient}/$summary`, `Patient/${victimPatient}/$everything`),
    });
    expect(direct.status).toBeGreaterThanOrEqual(400);
    expect(batched.body.entry.map((entry) => entry.response?.status)).toEqual([
      String(direct.status),
      String(direct.status),
    ]);
    expect(JSON.stringify(batched.body)).not.toContain('Victim');

    // An app allowed to read Observations only may not read a patient summary through a batch either.
    const ownPatient = await newPatient(attacker.tokens.access_token, 'Own');
    const app = await signInWithScope(attacker.email, attacker.password, 'openid user/Observation.read');
    const byApp = await http<Bundle>('POST', 'fhir/R4', {
      token: app.access_token as string,
      body: batch(`Patient/${ownPatient}/$summary`),
    });
    const appDirect = await http('GET', `fhir/R4/Patient/${ownPatient}/$summary`, {
      token: app.access_token as string,
    });
    expect(appDirect.status).toBe(403);
    expect(byApp.body.entry[0].response?.status).toBe('403');
  });

  it("gives a patient's batch no other patient's summary or compartment, as their own requests would not", async () => {
    const owner = await registerProjectOwner('Batch Portal Clinic');
    const other = await newPatient(owner.tokens.access_token, 'Neighbour');
    const email = `batch-portal-${Date.now()}@test.example`;
    const invited = await http<{ profile?: { reference?: string } }>(
      'POST',
      `admin/projects/${owner.projectId}/invite`,
      {
        token: owner.tokens.access_token,
        body: {
          resourceType: 'Patient',
          firstName: 'Pat',
          lastName: 'Portal',
          email,
          password: 'portal password 1',
          sendEmail: false,
        },
      },
    );
    expect(invited.status).toBe(200);
    const patientToken = (await signInWithScope(email, 'portal password 1', 'openid')).access_token as string;
    const urls = [`Patient/${other}/$summary`, `Patient/${other}/$everything`, `Patient/${other}/Observation`];
    const direct = await Promise.all(urls.map((url) => http('GET', `fhir/R4/${url}`, { token: patientToken })));
    const batched = await http<Bundle>('POST', 'fhir/R4', { token: patientToken, body: batch(...urls) });
    expect(batched.status).toBe(200);
    expect(batched.body.entry.map((entry) => entry.response?.status)).toEqual(direct.map((d) => String(d.status)));
    for (const entry of batched.body.entry) expect(Number(entry.response?.status)).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(batched.body)).not.toContain('Neighbour');
  });

  it('refuses paths that would leave the FHIR API, and never reads an operation URL as a read', async () => {
    const owner = await registerProjectOwner('Batch Paths Clinic');
    const token = owner.tokens.access_token;
    const patientId = await newPatient(token, 'Paths');
    const answer = await http<Bundle>('POST', 'fhir/R4', {
      token,
      body: batch(
        `Patient/${patientId}/../../../admin/projects/${owner.projectId}`,
        `Patient/%2e%2e/%2e%2e/healthcheck`,
        `Patient/${patientId}/$summary/extra/segments`,
      ),
    });
    expect(answer.status).toBe(200);
    for (const entry of answer.body.entry) {
      expect(entry.response?.status).toBe('400');
      expect(entry.resource).toBeUndefined();
    }
  });

  it('refuses a write to an operation URL instead of writing the resource it names', async () => {
    const owner = await registerProjectOwner('Batch Writes Clinic');
    const token = owner.tokens.access_token;
    const patientId = await newPatient(token, 'Unchanged');
    const answer = await http<Bundle>('POST', 'fhir/R4', {
      token,
      body: {
        resourceType: 'Bundle',
        type: 'batch',
        entry: [
          {
            resource: { resourceType: 'Patient', id: patientId, name: [{ family: 'Overwritten' }] },
            request: { method: 'PUT', url: `Patient/${patientId}/$anything` },
          },
          { request: { method: 'DELETE', url: `Patient/${patientId}/$anything` } },
        ],
      },
    });
    expect(answer.body.entry.map((entry) => entry.response?.status)).toEqual(['400', '400']);
    const after = await http<{ name: { family: string }[]; meta: { versionId: string } }>(
      'GET',
      `fhir/R4/Patient/${patientId}`,
      { token },
    );
    expect(after.status).toBe(200);
    expect(after.body.name[0].family).toBe('Unchanged');
  });

  it('refuses an operation inside a transaction, naming it, and writes nothing', async () => {
    const owner = await registerProjectOwner('Transaction Operations Clinic');
    const token = owner.tokens.access_token;
    const patientId = await newPatient(token, 'Transacted');
    const marker = `tx-${Date.now()}`;
    const answer = await http('POST', 'fhir/R4', {
      token,
      body: {
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [
          {
            resource: { resourceType: 'Patient', identifier: [{ system: 'urn:test', value: marker }] },
            request: { method: 'POST', url: 'Patient' },
          },
          { request: { method: 'GET', url: `Patient/${patientId}/$summary` } },
        ],
      },
    });
    expect(answer.status).toBe(400);
    expect(issueText(answer.body)).toBe(
      `Patient/${patientId}/$summary: operations cannot run inside a transaction; send them in a batch`,
    );
    const search = await http<{ total: number }>(
      'GET',
      `fhir/R4/Patient?identifier=urn:test|${marker}&_total=accurate`,
      { token },
    );
    expect(search.body.total).toBe(0);
  });
});
