import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner, uniqueEmail } from '../../tests/integration/accounts';
import { signIn } from '../../tests/integration/signIn';

/* eslint-disable @typescript-eslint/no-explicit-any -- answers of many shapes */
type Owner = Awaited<ReturnType<typeof registerProjectOwner>>;

const json = { 'content-type': 'application/json' };

/**
 * `POST /admin/projects/{id}/invite` with `membership.profile` (Medplum's name): a patient who
 * already has a chart (registration, import) is invited onto that chart, not a second, empty one.
 * Each refusal is replayed as an admin trying it on purpose, and followed by what must still work.
 */
describe('inviting onto an existing profile (membership.profile)', () => {
  let owner: Owner;
  let other: Owner;
  let token: string;

  beforeAll(async () => {
    owner = await registerProjectOwner('Chart Clinic');
    other = await registerProjectOwner('Chart Elsewhere');
    token = owner.tokens.access_token;
  });

  const inviteAs = (body: Record<string, unknown>, as = token) =>
    http<any>('POST', `admin/projects/${owner.projectId}/invite`, { token: as, body, headers: json });

  const create = async (resource: Record<string, unknown>, as = token) => {
    const created = await http<any>('POST', `fhir/R4/${resource.resourceType as string}`, {
      token: as,
      body: resource,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body;
  };

  const chart = (family: string, extra: Record<string, unknown> = {}, as = token) =>
    create({ resourceType: 'Patient', name: [{ given: ['Maria'], family }], birthDate: '1980-04-02', ...extra }, as);

  const patientCount = async (as = token) =>
    (await http<any>('GET', 'fhir/R4/Patient?_total=accurate&_count=1', { token: as })).body.total as number;

  const usersWith = async (email: string) =>
    (await http<any>('GET', `fhir/R4/User?email:exact=${encodeURIComponent(email)}`)).body.entry ?? [];

  const patientInvite = (email: string, profile: unknown, extra: Record<string, unknown> = {}) => ({
    resourceType: 'Patient',
    firstName: 'Typed',
    lastName: 'Differently',
    email,
    password: `portal-${randomUUID()}`,
    sendEmail: false,
    membership: { profile },
    ...extra,
  });

  it('links the existing chart: no new Patient, the chart keeps its name, and she reads her own records', async () => {
    const maria = await chart('Registered', { telecom: [{ system: 'phone', value: '555-0101' }] });
    const neighbour = await chart('Neighbour');
    const hers = await create({
      resourceType: 'Observation',
      status: 'final',
      code: { text: 'Body weight' },
      subject: { reference: `Patient/${maria.id}` },
      valueQuantity: { value: 61, unit: 'kg' },
    });
    const theirs = await create({
      resourceType: 'Observation',
      status: 'final',
      code: { text: 'Body weight' },
      subject: { reference: `Patient/${neighbour.id}` },
      valueQuantity: { value: 90, unit: 'kg' },
    });
    const before = await patientCount();
    const email = uniqueEmail('maria');
    const body = patientInvite(email, { reference: `Patient/${maria.id}` });

    const answer = await inviteAs(body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    // The membership's profile is her chart, shown by the chart's name rather than the typed one.
    expect(answer.body.profile).toEqual({ reference: `Patient/${maria.id}`, display: 'Maria Registered' });
    expect(await patientCount()).toBe(before);
    const stored = (await http<any>('GET', `fhir/R4/Patient/${maria.id}`, { token })).body;
    expect(stored.name).toEqual([{ given: ['Maria'], family: 'Registered' }]);
    expect(stored.birthDate).toBe('1980-04-02');
    // The invited address is added to what the chart listed, which stays.
    expect(stored.telecom).toEqual([
      { system: 'phone', value: '555-0101' },
      { system: 'email', value: email },
    ]);

    // She signs in to her chart and, through the default patient access, reads her records only.
    const tokens = await signIn(baseUrl(), email, body.password);
    const me = await http<any>('GET', 'auth/me', { token: tokens.access_token });
    expect(me.body.profile.id).toBe(maria.id);
    const observations = await http<any>('GET', 'fhir/R4/Observation?_count=50', { token: tokens.access_token });
    expect(observations.status).toBe(200);
    const ids = (observations.body.entry ?? []).map((entry: any) => entry.resource.id);
    expect(ids).toContain(hers.id);
    expect(ids).not.toContain(theirs.id);
    expect((await http('GET', `fhir/R4/Patient/${maria.id}`, { token: tokens.access_token })).status).toBe(200);
  });

  it("refuses another project's Patient with the answer for no patient at all, and makes nothing", async () => {
    const theirs = await chart('Foreign', {}, other.tokens.access_token);
    const theirVersion = theirs.meta.versionId;
    const ownBefore = await patientCount();
    const theirBefore = await patientCount(other.tokens.access_token);
    const email = uniqueEmail('hijack');

    const foreign = await inviteAs(patientInvite(email, { reference: `Patient/${theirs.id}` }));
    const missing = await inviteAs(patientInvite(email, { reference: `Patient/${randomUUID()}` }));
    expect(foreign.status).toBe(400);
    expect(issueExpressions(foreign.body)).toEqual(['membership.profile']);
    expect(issueText(foreign.body)).toBe('profile must be a Patient of this project');
    // Nothing tells the admin that the id exists elsewhere.
    expect({ status: missing.status, body: missing.body }).toEqual({ status: foreign.status, body: foreign.body });

    expect(await usersWith(email)).toHaveLength(0);
    expect(await patientCount()).toBe(ownBefore);
    expect(await patientCount(other.tokens.access_token)).toBe(theirBefore);
    const untouched = await http<any>('GET', `fhir/R4/Patient/${theirs.id}`, { token: other.tokens.access_token });
    expect(untouched.body.meta.versionId).toBe(theirVersion);
    expect(untouched.body.telecom).toBeUndefined();
    const memberships = await http<any>('GET', `fhir/R4/ProjectMembership?profile=Patient/${theirs.id}`);
    expect(memberships.body.entry ?? []).toHaveLength(0);

    // Nothing was left half made: the same address is then invited onto a chart of this project.
    const own = await chart('Own');
    const again = await inviteAs(patientInvite(email, { reference: `Patient/${own.id}` }));
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.profile.reference).toBe(`Patient/${own.id}`);
  });

  it('refuses a nonexistent, deleted or malformed reference under membership.profile, creating nothing', async () => {
    const deleted = await chart('Deleted');
    expect((await http('DELETE', `fhir/R4/Patient/${deleted.id}`, { token })).status).toBeLessThan(300);
    const before = await patientCount();
    const email = uniqueEmail('nobody');
    const cases: [unknown, string][] = [
      [{ reference: `Patient/${randomUUID()}` }, 'profile must be a Patient of this project'],
      [{ reference: `Patient/${deleted.id}` }, 'profile must be a Patient of this project'],
      [{ reference: 'Patient/' }, 'The profile must be a Patient (Patient/id), like the role invited'],
      ['Patient/123', 'The profile must be a Patient (Patient/id), like the role invited'],
      [{ display: 'Maria' }, 'The profile must be a Patient (Patient/id), like the role invited'],
    ];
    for (const [profile, text] of cases) {
      const answer = await inviteAs(patientInvite(email, profile));
      expect(answer.status, JSON.stringify(profile)).toBe(400);
      expect(answer.body.resourceType).toBe('OperationOutcome');
      expect(issueExpressions(answer.body)).toEqual(['membership.profile']);
      expect(issueText(answer.body)).toBe(text);
    }
    expect(await usersWith(email)).toHaveLength(0);
    expect(await patientCount()).toBe(before);
  });

  it('refuses a profile of another type than the role invited; each role links its own type', async () => {
    const email = uniqueEmail('mixed');
    const practitioner = await create({
      resourceType: 'Practitioner',
      name: [{ given: ['Paul'], family: 'Staff' }],
      // The address already listed (in other letters) is not listed twice.
      telecom: [{ system: 'email', value: email.toUpperCase() }],
    });
    const maria = await chart('Typed');
    const wrong: [string, string][] = [
      ['Patient', `Practitioner/${practitioner.id}`],
      ['Practitioner', `Patient/${maria.id}`],
      ['RelatedPerson', `Patient/${maria.id}`],
    ];
    for (const [resourceType, reference] of wrong) {
      const answer = await inviteAs(patientInvite(email, { reference }, { resourceType }));
      expect(answer.status, `${resourceType} ${reference}`).toBe(400);
      expect(issueExpressions(answer.body)).toEqual(['membership.profile']);
      expect(issueText(answer.body)).toBe(
        `The profile must be a ${resourceType} (${resourceType}/id), like the role invited`,
      );
    }
    expect(await usersWith(email)).toHaveLength(0);

    // A RelatedPerson that exists keeps the patient it names: a second one is refused, not ignored.
    const mother = await create({
      resourceType: 'RelatedPerson',
      patient: { reference: `Patient/${maria.id}` },
      name: [{ given: ['Rosa'], family: 'Typed' }],
    });
    const conflicting = await inviteAs(
      patientInvite(
        uniqueEmail('mother'),
        { reference: `RelatedPerson/${mother.id}` },
        { resourceType: 'RelatedPerson', patient: { reference: `Patient/${maria.id}` } },
      ),
    );
    expect(conflicting.status).toBe(400);
    expect(issueExpressions(conflicting.body)).toEqual(['patient']);
    const related = await inviteAs(
      patientInvite(
        uniqueEmail('mother'),
        { reference: `RelatedPerson/${mother.id}` },
        { resourceType: 'RelatedPerson' },
      ),
    );
    expect(related.status, JSON.stringify(related.body)).toBe(200);
    expect(related.body.profile.reference).toBe(`RelatedPerson/${mother.id}`);

    const staff = await inviteAs(
      patientInvite(email, { reference: `Practitioner/${practitioner.id}` }, { resourceType: 'Practitioner' }),
    );
    expect(staff.status, JSON.stringify(staff.body)).toBe(200);
    expect(staff.body.profile).toEqual({ reference: `Practitioner/${practitioner.id}`, display: 'Paul Staff' });
    const kept = (await http<any>('GET', `fhir/R4/Practitioner/${practitioner.id}`, { token })).body;
    expect(kept.meta.versionId).toBe(practitioner.meta.versionId);
    expect(kept.telecom).toEqual([{ system: 'email', value: email.toUpperCase() }]);
  });

  it('refuses a chart that already has a portal account (409), also when two invitations race', async () => {
    const maria = await chart('Linked');
    const first = await inviteAs(patientInvite(uniqueEmail('first'), { reference: `Patient/${maria.id}` }));
    expect(first.status, JSON.stringify(first.body)).toBe(200);

    const secondEmail = uniqueEmail('second');
    const second = await inviteAs(patientInvite(secondEmail, { reference: `Patient/${maria.id}` }));
    expect(second.status).toBe(409);
    expect(issueText(second.body)).toBe('This patient already has a portal account');
    expect(issueExpressions(second.body)).toEqual(['membership.profile']);
    expect(await usersWith(secondEmail)).toHaveLength(0);
    // Also when the first membership was switched off: it is reactivated, not doubled.
    const off = await http<any>('POST', `admin/projects/${owner.projectId}/members/${first.body.id}`, {
      token,
      body: { ...first.body, active: false },
      headers: { 'content-type': 'application/fhir+json' },
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect((await inviteAs(patientInvite(secondEmail, { reference: `Patient/${maria.id}` }))).status).toBe(409);
    const chartNow = (await http<any>('GET', `fhir/R4/Patient/${maria.id}`, { token })).body;
    expect(chartNow.telecom.map((point: any) => point.value)).toEqual([first.body.user.display]);

    // A double click, or two admins at once: one portal account for the chart.
    const contested = await chart('Contested');
    const answers = await Promise.all(
      ['one', 'two'].map((who) => inviteAs(patientInvite(uniqueEmail(who), { reference: `Patient/${contested.id}` }))),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const holders = await http<any>('GET', `fhir/R4/ProjectMembership?profile=Patient/${contested.id}`, { token });
    expect(holders.body.entry).toHaveLength(1);
  });

  it('refuses moving a membership onto a chart another account already has (409), and leaves it unchanged', async () => {
    const taken = await chart('Taken');
    const holder = await inviteAs(patientInvite(uniqueEmail('holder'), { reference: `Patient/${taken.id}` }));
    expect(holder.status, JSON.stringify(holder.body)).toBe(200);
    const mover = await inviteAs(
      patientInvite(uniqueEmail('mover'), { reference: `Patient/${(await chart('Own')).id}` }),
    );
    expect(mover.status, JSON.stringify(mover.body)).toBe(200);

    // The replay: an admin edits the second membership to act as the first patient.
    const moved = await http<any>('POST', `admin/projects/${owner.projectId}/members/${mover.body.id}`, {
      token,
      body: { ...mover.body, profile: { reference: `Patient/${taken.id}` } },
      headers: { 'content-type': 'application/fhir+json' },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(409);
    expect(issueText(moved.body)).toBe('This patient already has a portal account');
    expect(issueExpressions(moved.body)).toEqual(['ProjectMembership.profile']);
    const holders = await http<any>('GET', `fhir/R4/ProjectMembership?profile=Patient/${taken.id}`, { token });
    expect(holders.body.entry.map((entry: any) => entry.resource.id)).toEqual([holder.body.id]);

    // A save that keeps its own profile still works, and so does a move onto a chart nobody has.
    const kept = await http<any>('POST', `admin/projects/${owner.projectId}/members/${holder.body.id}`, {
      token,
      body: { ...holder.body, admin: false },
      headers: { 'content-type': 'application/fhir+json' },
    });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    const free = await chart('Free');
    const onto = await http<any>('POST', `admin/projects/${owner.projectId}/members/${mover.body.id}`, {
      token,
      body: { ...mover.body, profile: { reference: `Patient/${free.id}` } },
      headers: { 'content-type': 'application/fhir+json' },
    });
    expect(onto.status, JSON.stringify(onto.body)).toBe(200);
  });
});
