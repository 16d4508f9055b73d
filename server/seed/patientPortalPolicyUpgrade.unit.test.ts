import { randomUUID } from 'node:crypto';
import type { AccessPolicy, AccessPolicyResource, Resource } from '@medplum/fhirtypes';
import { beforeAll, describe, expect, it } from 'vitest';
import { embeddedTestDatabase } from '../../tests/setup/embeddedTestDatabase';
import { Repository } from '../fhir/repository';
import { definitionSearchParameters } from '../serverRuntime';
import { systemAuthor } from '../definitions/loadDefinitions';
import { readState, writeState } from '../storage/serverState';
import { seedDemo, type DemoState } from './demoSeed';
import { PATIENT_PORTAL_POLICY_VERSION, patientPortalPolicy, upgradePatientPortalPolicy } from './patientPortalPolicy';

/**
 * How a demo database seeded before the Medication entry gets it: once, on a start, and only when
 * its patient policy is still exactly what an earlier seed wrote.
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
/** What the seed wrote before 2026-11-28 (a prefix match), and from then until the Medication entry. */
const seededV1 = [compartment, chat('criteria')];
const seededV2 = [compartment, chat('criteria:exact')];

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
  it('replaces the entries of either earlier seed by the current ones, keeping the rest of the policy', async () => {
    for (const earlier of [seededV1, seededV2]) {
      const { projectId, policyId } = await projectWithPatientPolicy(earlier);
      expect(await upgrade(projectId)).toBe('upgraded');
      const policy = await storedPolicy(policyId);
      expect(policy.resource).toEqual(patientPortalPolicy.resource);
      expect(policy.name).toBe('Patient portal');
      expect(policy.meta.project).toBe(projectId);
      // The Medication entry reads only; the chat entry is the exact one (the prefix match is gone).
      expect(policy.resource).toContainEqual({ resourceType: 'Medication', readonly: true });
      expect(policy.resource).toContainEqual(chat('criteria:exact'));
      expect(policy.resource).not.toContainEqual(chat('criteria'));
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
    const { projectId, policyId } = await projectWithPatientPolicy(seededV2);
    await writeState(database(), 'demo', { projectId, patients: 6, resources: 823, launchCheckClientId: randomUUID() });
    const log: string[] = [];

    const state = await start(log);
    expect(log).toEqual(['Brought the Demo Clinic\'s "Patient portal" access policy up to date']);
    expect(state.patientPortalPolicyVersion).toBe(PATIENT_PORTAL_POLICY_VERSION);
    expect((await readState<DemoState>(database(), 'demo'))?.patientPortalPolicyVersion).toBe(
      PATIENT_PORTAL_POLICY_VERSION,
    );
    expect((await storedPolicy(policyId)).resource).toEqual(patientPortalPolicy.resource);

    // The clinic decides patients should not see the catalogue after all: the next start leaves it.
    const upgraded = await storedPolicy(policyId);
    await repository.transaction((session) =>
      session.update({ projectId, author: systemAuthor }, { ...upgraded, resource: seededV2 }),
    );
    await start(log);
    expect(log).toHaveLength(1);
    expect((await storedPolicy(policyId)).resource).toEqual(seededV2);
  });

  it('says what to add when the policy was edited, once', async () => {
    const { projectId, policyId } = await projectWithPatientPolicy([compartment]);
    await writeState(database(), 'demo', { projectId, patients: 6, resources: 823, launchCheckClientId: randomUUID() });
    const log: string[] = [];
    await start(log);
    await start(log);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/was edited, so it was left as it is.*"resourceType": "Medication", "readonly": true/);
    expect((await storedPolicy(policyId)).resource).toEqual([compartment]);
  });
});
