import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AccessPolicy, Communication, Patient, Resource } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessGuard } from '../auth/accessGuard';
import { FhirError } from '../fhir/fhirError';
import { Repository, type CommittedWrite, type RequestContext } from '../fhir/repository';
import { definitionSearchParameters } from '../serverRuntime';
import type { Database } from '../storage/database';
import { openDatabase } from '../storage/openDatabase';
import { evaluateCriteriaBatch, matchesCriteria, matchesWrite, parseCriteria } from './criteriaMatcher';

let db: Database;
// PGlite kept in memory cannot load the btree_gist extension the migrations need: use a folder.
const dataDir = mkdtempSync(join(tmpdir(), 'hearth-criteria-'));
let repository: Repository;
const ctx: RequestContext = { projectId: 'project-a', author: { reference: 'Practitioner/author' } };
const committed: CommittedWrite[] = [];

function guard(projectId: string, policy?: AccessPolicy): AccessGuard {
  return new AccessGuard({ projectId, sharedProjectId: 'shared', superAdmin: false, policy }, repository.registry);
}

function communication(patientId: string, status: Communication['status']): Communication {
  return { resourceType: 'Communication', status, subject: { reference: `Patient/${patientId}` } };
}

beforeAll(async () => {
  db = await openDatabase({ dataDir });
  repository = new Repository(db, definitionSearchParameters());
  repository.onCommitted((writes) => committed.push(...writes));
}, 120_000);

afterAll(async () => {
  await db?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

// The first statements on a fresh embedded database are slow on a busy machine.
describe('matchesCriteria', { timeout: 30_000 }, () => {
  it('matches a stored resource against reference and token criteria, and not against another type', async () => {
    const stored = await repository.create(ctx, communication('p1', 'in-progress'));
    await repository.transaction(async (session) => {
      expect(await matchesCriteria(session, 'Communication?subject=Patient/p1', stored)).toBe(true);
      expect(await matchesCriteria(session, 'Communication?subject=Patient/p2', stored)).toBe(false);
      expect(await matchesCriteria(session, 'Communication?subject=Patient/p1&status=completed', stored)).toBe(false);
      expect(await matchesCriteria(session, 'Communication', stored)).toBe(true);
      expect(await matchesCriteria(session, 'Task?owner=Patient/p1', stored)).toBe(false);
    });
  });

  it('judges each version by its own content, even after it was replaced', async () => {
    const first = await repository.create(ctx, communication('p3', 'in-progress'));
    const second = (await repository.update(ctx, { ...(first as Communication), status: 'completed' } as Communication))
      .resource;
    await repository.transaction(async (session) => {
      expect(await matchesCriteria(session, 'Communication?status=in-progress', first)).toBe(true);
      expect(await matchesCriteria(session, 'Communication?status=completed', first)).toBe(false);
      expect(await matchesCriteria(session, 'Communication?status=completed', second)).toBe(true);
    });
    // Evaluating the old version changed nothing stored.
    const current = await repository.read('Communication', first.id as string);
    expect((current as Communication).status).toBe('completed');
    expect(current.meta?.versionId).toBe(second.meta?.versionId);
  });

  it('matches a delete by the content it removed, and leaves the resource deleted', async () => {
    const stored = await repository.create(ctx, communication('p4', 'completed'));
    committed.length = 0;
    await repository.delete(ctx, 'Communication', stored.id as string);
    const deletion = committed.find((write) => write.operation === 'delete') as CommittedWrite;
    expect(deletion.previous?.id).toBe(stored.id);
    await repository.transaction(async (session) => {
      expect(await matchesWrite(session, 'Communication?subject=Patient/p4', deletion)).toBe(true);
      expect(await matchesWrite(session, 'Communication?subject=Patient/p5', deletion)).toBe(false);
      // The tombstone alone has no subject.
      expect(await matchesCriteria(session, 'Communication?subject=Patient/p4', deletion.resource)).toBe(false);
    });
    await expect(repository.read('Communication', stored.id as string)).rejects.toMatchObject({ status: 410 });
    const search = await repository.transaction((session) =>
      session.search({
        resourceType: 'Communication',
        filters: [],
        sort: [],
        count: 100,
        offset: 0,
        total: 'none',
        include: [],
        revInclude: [],
        compartments: ['Patient/p4'],
      }),
    );
    expect(search.resources).toHaveLength(0);
  });

  it('follows chains like the search API does', async () => {
    const patient = await repository.create(ctx, {
      resourceType: 'Patient',
      name: [{ family: 'Okonkwo', given: ['Ada'] }],
    } as Patient);
    const message = await repository.create(ctx, communication(patient.id as string, 'completed'));
    await repository.transaction(async (session) => {
      expect(await matchesCriteria(session, 'Communication?subject:Patient.name=okon', message)).toBe(true);
      expect(await matchesCriteria(session, 'Communication?subject:Patient.name=smith', message)).toBe(false);
    });
  });

  it("applies the session's access guard: other projects and resources outside the policy never match", async () => {
    const completed = await repository.create(ctx, communication('p6', 'completed'));
    const draft = await repository.create(ctx, communication('p6', 'preparation'));
    const policy: AccessPolicy = {
      resourceType: 'AccessPolicy',
      resource: [{ resourceType: 'Communication', criteria: 'Communication?status=completed' }],
    };
    await repository.transaction(
      async (session) => {
        expect(await matchesCriteria(session, 'Communication?subject=Patient/p6', completed)).toBe(true);
        expect(await matchesCriteria(session, 'Communication?subject=Patient/p6', draft)).toBe(false);
      },
      guard('project-a', policy),
    );
    await repository.transaction(async (session) => {
      expect(await matchesCriteria(session, 'Communication?subject=Patient/p6', completed)).toBe(false);
    }, guard('project-b'));
    const noCommunications: AccessPolicy = {
      resourceType: 'AccessPolicy',
      resource: [{ resourceType: 'Patient' }],
    };
    await repository.transaction(
      async (session) => {
        expect(await matchesCriteria(session, 'Communication?subject=Patient/p6', completed)).toBe(false);
      },
      guard('project-a', noCommunications),
    );
  });

  it('matches nothing through a field the policy hides, directly or through a chain (no oracle for its value)', async () => {
    const patient = await repository.create(ctx, {
      resourceType: 'Patient',
      birthDate: '1941-01-02',
    } as Patient);
    const message = await repository.create(ctx, communication(patient.id as string, 'completed'));
    const hiding: AccessPolicy = {
      resourceType: 'AccessPolicy',
      resource: [{ resourceType: 'Patient', hiddenFields: ['birthDate'] }, { resourceType: 'Communication' }],
    };
    const seeing: AccessPolicy = {
      resourceType: 'AccessPolicy',
      resource: [{ resourceType: 'Patient' }, { resourceType: 'Communication' }],
    };
    for (const [policy, expected] of [
      [hiding, false],
      [seeing, true],
    ] as const) {
      await repository.transaction(
        async (session) => {
          expect(await matchesCriteria(session, 'Patient?birthdate=1941-01-02', patient)).toBe(expected);
          expect(await matchesCriteria(session, 'Communication?subject:Patient.birthdate=1941-01-02', message)).toBe(
            expected,
          );
        },
        guard('project-a', policy),
      );
    }
  });

  it('judges many versions against many criteria at once, each version by its own content', async () => {
    const first = (await repository.create(ctx, communication('p8', 'in-progress'))) as Communication;
    const replaced = (await repository.update(ctx, { ...first, status: 'completed' } as Communication)).resource;
    const other = await repository.create(ctx, communication('p9', 'completed'));
    const checks = [
      'Communication?subject=Patient/p8',
      'Communication?status=completed',
      'Communication?subject=Patient/p9&status=completed',
      'Patient?name=x',
    ].map((criteria) => ({ criteria: parseCriteria(criteria, repository.registry) }));
    const answers = await repository.transaction((session) =>
      evaluateCriteriaBatch(session.tx, session.registry, [first, replaced, other], checks),
    );
    expect(answers).toEqual([
      [true, false, false, false],
      [true, true, false, false],
      [false, true, true, false],
    ]);
    const outsider = guard('project-b');
    const foreign = await repository.transaction((session) =>
      evaluateCriteriaBatch(session.tx, session.registry, [replaced], [{ ...checks[0], access: outsider }, checks[0]]),
    );
    expect(foreign).toEqual([[false, true]]);
  });

  it('refuses criteria the search API refuses, with the reason', async () => {
    const stored: Resource = await repository.create(ctx, communication('p7', 'completed'));
    await repository.transaction(async (session) => {
      const unknown = matchesCriteria(session, 'Communication?colour=blue', stored);
      await expect(unknown).rejects.toBeInstanceOf(FhirError);
      await expect(matchesCriteria(session, 'Communication?colour=blue', stored)).rejects.toThrow(
        /Unknown search parameter "colour"/,
      );
      await expect(matchesCriteria(session, 'not a type', stored)).rejects.toThrow(/Invalid criteria/);
    });
  });
});
