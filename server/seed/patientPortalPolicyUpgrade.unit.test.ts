import { randomUUID } from 'node:crypto';
import type { AccessPolicy, AccessPolicyResource, Resource } from '@medplum/fhirtypes';
import { beforeAll, describe, expect, it } from 'vitest';
import { embeddedTestDatabase } from '../../tests/setup/embeddedTestDatabase';
import { Repository } from '../fhir/repository';
import { definitionSearchParameters } from '../serverRuntime';
import { systemAuthor } from '../definitions/loadDefinitions';
import { readState, writeState } from '../storage/serverState';
import { fieldsFixedByReadMark, readMarkStatuses } from '../../data-provider/access';
import { seedDemo, type DemoState } from './demoSeed';
import { PATIENT_PORTAL_POLICY_VERSION, patientPortalPolicy, upgradePatientPortalPolicy } from './patientPortalPolicy';

/**
 * How a demo database seeded before gets the current patient policy (the Medication entry, the
 * read-only compartment): once, on a start, and only when its patient policy is still exactly what
 * an earlier seed wrote.
 */

const database = embeddedTestDatabase('portal-policy-upgrade');
let repository: Repository;

beforeAll(() => {
  repository = new Repository(database(), definitionSearchParameters());
});

const chat = (criteria: string): AccessPolicyResource => ({
  resourceType: 'Subscription',
  criteria: `Subscription?${criteria}=Communication?subject=%profile`,
});
const compartment: AccessPolicyResource = { resourceType: '*', compartment: { reference: '%profile' } };
const medication: AccessPolicyResource = { resourceType: 'Medication', readonly: true };
/**
 * What the seed wrote before 2026-11-28 (a prefix match), from then until the Medication entry, and
 * from then until the compartment was read-only (patients could write their clinical records).
 */
const seededV1 = [compartment, chat('criteria')];
const seededV2 = [compartment, chat('criteria:exact')];
const seededV3 = [compartment, chat('criteria:exact'), medication];
/**
 * What the seed wrote from the read mark's fixed fields until the care team's working material was
 * narrowed: she read the clinician's visit-note drafts, the staff's Tasks and messages between staff.
 */
const wholeCommunicationRead: AccessPolicyResource = {
  resourceType: 'Communication',
  compartment: { reference: '%profile' },
  readonly: true,
};
const seededV6: AccessPolicyResource[] = [
  { ...compartment, readonly: true },
  wholeCommunicationRead,
  {
    resourceType: 'Communication',
    compartment: { reference: '%profile' },
    criteria: 'Communication?sender=%profile&subject=%profile&status=in-progress',
    interaction: ['create'],
  },
  {
    resourceType: 'Communication',
    compartment: { reference: '%profile' },
    criteria: `Communication?recipient=%profile&subject=%profile&status=${readMarkStatuses}`,
    interaction: ['update'],
    readonlyFields: [...fieldsFixedByReadMark],
  },
  {
    resourceType: 'Subscription',
    criteria: 'Subscription?criteria:exact=Communication?subject=%profile&type=websocket&author=%profile',
  },
  medication,
];

/** A project whose default patient policy has these entries (keys in another order, as a database may keep them). */
async function projectWithPatientPolicy(entries: AccessPolicyResource[] | undefined) {
  const projectId = randomUUID();
  const ctx = { projectId, author: systemAuthor };
  return repository.transaction(async (session) => {
    await session.create(ctx, { resourceType: 'Project', name: 'Demo Clinic' } as Resource, {
      id: projectId,
      fresh: true,
    });
    if (!entries) return { projectId, policyId: '' };
    const reordered = entries.map((entry) => Object.fromEntries(Object.entries(entry).reverse())) as typeof entries;
    const policy = await session.create(ctx, {
      resourceType: 'AccessPolicy',
      name: 'Patient portal',
      resource: reordered,
    } as AccessPolicy);
    await session.flush();
    const project = await session.read('Project', projectId);
    await session.update(ctx, {
      ...project,
      defaultPatientAccessPolicy: { reference: `AccessPolicy/${policy.id}`, display: 'Patient portal' },
    } as Resource);
    return { projectId, policyId: policy.id as string };
  });
}

const storedPolicy = (id: string) =>
  repository.transaction(
    async (session) => (await session.read('AccessPolicy', id)) as AccessPolicy & { meta: { versionId: string } },
  );
const upgrade = (projectId: string) =>
  repository.transaction((session) => upgradePatientPortalPolicy(session, projectId));

describe('bringing the demo patient policy up to date', () => {
  it('replaces the entries of any earlier seed by the current ones, keeping the rest of the policy', async () => {
    for (const earlier of [seededV1, seededV2, seededV3, seededV6]) {
      const { projectId, policyId } = await projectWithPatientPolicy(earlier);
      expect(await upgrade(projectId)).toBe('upgraded');
      const policy = await storedPolicy(policyId);
      expect(policy.resource).toEqual(patientPortalPolicy.resource);
      expect(policy.name).toBe('Patient portal');
      expect(policy.meta.project).toBe(projectId);
      // The Medication entry reads only; the chat entry is the exact one, of her own websockets (the prefix match is gone).
      expect(policy.resource).toContainEqual(medication);
      expect(policy.resource).toContainEqual({
        resourceType: 'Subscription',
        criteria: 'Subscription?criteria:exact=Communication?subject=%profile&type=websocket&author=%profile',
      });
      expect(policy.resource).not.toContainEqual(chat('criteria'));
      // The compartment is read, not written: no entry lets her write it whole.
      expect(policy.resource).toContainEqual({ ...compartment, readonly: true });
      expect(policy.resource).not.toContainEqual(compartment);
      // Drafts, the staff's tasks and their messages between them are not hers: no entry reads them whole.
      expect(policy.resource).toContainEqual(
        expect.objectContaining({
          resourceType: 'QuestionnaireResponse',
          criteria: 'QuestionnaireResponse?status=completed,amended',
        }),
      );
      expect(policy.resource).toContainEqual(
        expect.objectContaining({ resourceType: 'Task', criteria: 'Task?owner=%profile' }),
      );
      expect(policy.resource).not.toContainEqual(wholeCommunicationRead);
      // Again: nothing to do, nothing written.
      expect(await upgrade(projectId)).toBe('current');
      expect((await storedPolicy(policyId)).meta.versionId).toBe(policy.meta.versionId);
    }
  });

  it('leaves a policy the clinic edited as it is', async () => {
    for (const edited of [
      [compartment], // patients kept out of live chat
      [...seededV2, { resourceType: 'Practitioner', readonly: true }],
      [{ ...compartment, hiddenFields: ['note'] }, chat('criteria:exact')],
      [...seededV3, { resourceType: 'Practitioner', readonly: true }],
      [{ ...compartment, readonly: true }, chat('criteria:exact'), medication], // narrowed their own way
      [...seededV6, { resourceType: 'Practitioner', readonly: true }],
    ]) {
      const { projectId, policyId } = await projectWithPatientPolicy(edited);
      const before = await storedPolicy(policyId);
      expect(await upgrade(projectId)).toBe('edited');
      expect(await storedPolicy(policyId)).toEqual(before);
    }
  });

  it('has nothing to do where the project names no patient policy', async () => {
    expect(await upgrade((await projectWithPatientPolicy(undefined)).projectId)).toBe('missing');
    expect(await upgrade(randomUUID())).toBe('missing');
  });
});

describe('a start of a demo database seeded before', () => {
  const start = async (log: string[]) =>
    seedDemo(repository, repository.registry, {
      fixturesDir: '/nonexistent',
      fhirBase: 'http://localhost:8103/fhir/R4/',
      baseUrl: 'http://localhost:8103/',
      log: (line) => log.push(line),
      admin: { projectId: 'admin', userId: 'u', practitionerId: 'p', membershipId: 'm', email: 'admin@example.com' },
      dataDir: '/nonexistent',
    });

  it('upgrades its policy once and records it: a clinic that takes the entry out again is not overruled', async () => {
    const { projectId, policyId } = await projectWithPatientPolicy(seededV3);
    await writeState(database(), 'demo', {
      projectId,
      patients: 6,
      resources: 823,
      launchCheckClientId: randomUUID(),
      patientPortalPolicyVersion: 3,
    });
    const log: string[] = [];

    const state = await start(log);
    expect(log).toEqual(['Brought the Demo Clinic\'s "Patient portal" access policy up to date']);
    expect(state.patientPortalPolicyVersion).toBe(PATIENT_PORTAL_POLICY_VERSION);
    expect((await readState<DemoState>(database(), 'demo'))?.patientPortalPolicyVersion).toBe(
      PATIENT_PORTAL_POLICY_VERSION,
    );
    expect((await storedPolicy(policyId)).resource).toEqual(patientPortalPolicy.resource);

    // The clinic decides to go back to the earlier policy: the next start leaves it.
    const upgraded = await storedPolicy(policyId);
    await repository.transaction((session) =>
      session.update({ projectId, author: systemAuthor }, { ...upgraded, resource: seededV3 }),
    );
    await start(log);
    expect(log).toHaveLength(1);
    expect((await storedPolicy(policyId)).resource).toEqual(seededV3);
  });

  it('says what to add when the policy was edited, once', async () => {
    const { projectId, policyId } = await projectWithPatientPolicy([compartment]);
    await writeState(database(), 'demo', { projectId, patients: 6, resources: 823, launchCheckClientId: randomUUID() });
    const log: string[] = [];
    await start(log);
    await start(log);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/was edited, so it was left as it is: .*make up, change and delete their clinical records/);
    expect(log[0]).toContain(JSON.stringify(patientPortalPolicy.resource));
    expect((await storedPolicy(policyId)).resource).toEqual([compartment]);
  });
});
