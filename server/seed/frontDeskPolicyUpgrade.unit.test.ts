import { randomUUID } from 'node:crypto';
import type { AccessPolicy, AccessPolicyResource, Resource } from '@medplum/fhirtypes';
import { beforeAll, describe, expect, it } from 'vitest';
import { embeddedTestDatabase } from '../../tests/setup/embeddedTestDatabase';
import { Repository } from '../fhir/repository';
import { definitionSearchParameters } from '../serverRuntime';
import { systemAuthor } from '../definitions/loadDefinitions';
import { readState, writeState } from '../storage/serverState';
import { seedDemo, type DemoState } from './demoSeed';
import {
  FRONT_DESK_POLICY_VERSION,
  frontDeskLiveChatEntry,
  frontDeskPolicy,
  upgradeFrontDeskPolicy,
} from './frontDeskPolicy';

/**
 * How a demo database seeded before the staff chat's live Subscription gets it: once, on a start,
 * and only when its "Front desk" policy is still exactly what the earlier seed wrote.
 */

const database = embeddedTestDatabase('front-desk-policy-upgrade');
let repository: Repository;

beforeAll(() => {
  repository = new Repository(database(), definitionSearchParameters());
});

/** What the seed wrote before the live chat's Subscription entry. */
const seededV1: AccessPolicyResource[] = [
  { resourceType: 'Patient', readonlyFields: ['identifier'] },
  { resourceType: 'Appointment' },
  { resourceType: 'Schedule' },
  { resourceType: 'Slot' },
  { resourceType: 'Communication' },
  { resourceType: 'Task', criteria: 'Task?status=requested,ready,in-progress,on-hold,completed' },
  { resourceType: 'Practitioner', readonly: true },
  { resourceType: 'Organization', readonly: true },
  { resourceType: 'Encounter', readonly: true, hiddenFields: ['reasonCode', 'diagnosis'] },
];

/**
 * A project with a policy of this name and entries (keys in another order, as a database may keep
 * them), which a member of the project is under unless `member` is false.
 */
async function projectWithFrontDesk(
  entries: AccessPolicyResource[] | undefined,
  { name = 'Front desk', member = true }: { name?: string; member?: boolean } = {},
) {
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
      name,
      resource: reordered,
    } as AccessPolicy);
    if (member) {
      await session.create(ctx, {
        resourceType: 'ProjectMembership',
        project: { reference: `Project/${projectId}` },
        user: { reference: `User/${randomUUID()}` },
        profile: { reference: `Practitioner/${randomUUID()}` },
        accessPolicy: { reference: `AccessPolicy/${policy.id}`, display: name },
      } as Resource);
    }
    return { projectId, policyId: policy.id as string };
  });
}

const storedPolicy = (id: string) =>
  repository.transaction(
    async (session) => (await session.read('AccessPolicy', id)) as AccessPolicy & { meta: { versionId: string } },
  );
const upgrade = (projectId: string) => repository.transaction((session) => upgradeFrontDeskPolicy(session, projectId));

describe('bringing the demo front desk policy up to date', () => {
  it('adds the live chat’s Subscription to the earlier seed’s entries, once', async () => {
    const { projectId, policyId } = await projectWithFrontDesk(seededV1);
    expect(await upgrade(projectId)).toBe('upgraded');
    const policy = await storedPolicy(policyId);
    expect(policy.resource).toEqual(frontDeskPolicy.resource);
    expect(policy.resource).toContainEqual(frontDeskLiveChatEntry);
    expect(policy.name).toBe('Front desk');
    expect(policy.meta.project).toBe(projectId);
    expect(await upgrade(projectId)).toBe('current');
    expect((await storedPolicy(policyId)).meta.versionId).toBe(policy.meta.versionId);
  });

  it('lets the front desk register patients: the MRN is read-only on update only (from the second seed’s entries)', async () => {
    const { projectId, policyId } = await projectWithFrontDesk([...seededV1, frontDeskLiveChatEntry]);
    expect(await upgrade(projectId)).toBe('upgraded');
    const patientEntries = (await storedPolicy(policyId)).resource?.filter((entry) => entry.resourceType === 'Patient');
    expect(patientEntries).toEqual([
      { resourceType: 'Patient', interaction: ['read', 'vread', 'history', 'search', 'create'] },
      {
        resourceType: 'Patient',
        interaction: ['read', 'vread', 'history', 'search', 'update'],
        readonlyFields: ['identifier'],
      },
    ]);
    expect(await upgrade(projectId)).toBe('current');
  });

  it('leaves a policy the clinic edited as it is', async () => {
    for (const edited of [
      seededV1.filter((entry) => entry.resourceType !== 'Communication'), // no messages at the desk
      [...seededV1, { resourceType: 'Subscription' }],
      [...seededV1.slice(0, -1), { resourceType: 'Encounter', readonly: true }],
    ]) {
      const { projectId, policyId } = await projectWithFrontDesk(edited);
      const before = await storedPolicy(policyId);
      expect(await upgrade(projectId)).toBe('edited');
      expect(await storedPolicy(policyId)).toEqual(before);
    }
  });

  it('has nothing to do without a "Front desk" policy a member of the project is under', async () => {
    expect(await upgrade((await projectWithFrontDesk(undefined)).projectId)).toBe('missing');
    for (const options of [{ name: 'Reception' }, { member: false }]) {
      const { projectId, policyId } = await projectWithFrontDesk(seededV1, options);
      expect(await upgrade(projectId)).toBe('missing');
      expect((await storedPolicy(policyId)).resource).toEqual(seededV1);
    }
    // Another project's: not this one's to change.
    const other = await projectWithFrontDesk(seededV1);
    expect(await upgrade(randomUUID())).toBe('missing');
    expect((await storedPolicy(other.policyId)).resource).toEqual(seededV1);
  });
});

describe('a start of a demo database seeded before the live chat', () => {
  const start = async (log: string[]) =>
    seedDemo(repository, repository.registry, {
      fixturesDir: '/nonexistent',
      fhirBase: 'http://localhost:8103/fhir/R4/',
      baseUrl: 'http://localhost:8103/',
      log: (line) => log.push(line),
      admin: { projectId: 'admin', userId: 'u', practitionerId: 'p', membershipId: 'm', email: 'admin@example.com' },
      dataDir: '/nonexistent',
    });
  /** The state a demo database of the previous release has (its patient policy already current). */
  const previousRelease = (projectId: string) =>
    writeState(database(), 'demo', {
      projectId,
      patients: 6,
      resources: 823,
      launchCheckClientId: randomUUID(),
      patientPortalPolicyVersion: 4,
    });

  it('upgrades its policy once and records it: a clinic that takes the entry out again is not overruled', async () => {
    const { projectId, policyId } = await projectWithFrontDesk(seededV1);
    await previousRelease(projectId);
    const log: string[] = [];
    const state = await start(log);
    expect(log).toEqual(['Brought the Demo Clinic\'s "Front desk" access policy up to date']);
    expect(state.frontDeskPolicyVersion).toBe(FRONT_DESK_POLICY_VERSION);
    expect((await readState<DemoState>(database(), 'demo'))?.frontDeskPolicyVersion).toBe(FRONT_DESK_POLICY_VERSION);
    expect((await storedPolicy(policyId)).resource).toEqual(frontDeskPolicy.resource);

    const upgraded = await storedPolicy(policyId);
    await repository.transaction((session) =>
      session.update({ projectId, author: systemAuthor }, { ...upgraded, resource: seededV1 }),
    );
    await start(log);
    expect(log).toHaveLength(1);
    expect((await storedPolicy(policyId)).resource).toEqual(seededV1);
  });

  it('says what to add when the policy was edited, once', async () => {
    const edited = seededV1.slice(1);
    const { projectId, policyId } = await projectWithFrontDesk(edited);
    await previousRelease(projectId);
    const log: string[] = [];
    await start(log);
    await start(log);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/"Front desk" access policy was edited, so it was left as it is/);
    expect(log[0]).toContain(JSON.stringify(frontDeskLiveChatEntry));
    expect(log[0]).toContain('"readonlyFields":["identifier"]');
    expect((await storedPolicy(policyId)).resource).toEqual(edited);
  });
});
