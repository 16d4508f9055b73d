import type { Communication, Resource } from '@medplum/fhirtypes';
import { beforeAll, describe, expect, it } from 'vitest';
import { embeddedTestDatabase } from '../../tests/setup/embeddedTestDatabase';
import { AccessGuard } from '../auth/accessGuard';
import { systemAuthor } from '../definitions/loadDefinitions';
import { definitionSearchParameters } from '../serverRuntime';
import { Repository } from './repository';
import { ServerAddress } from './serverAddress';

/*
 * The repository stores a reference to this server's own FHIR base in its relative form
 * (serverAddress.ts), whoever writes it, and a version stored before that rule is compared and
 * re-checked in that form when it is next written.
 */

const database = embeddedTestDatabase('local-references');
const base = 'http://localhost:8461/fhir/R4/';
let legacy: Repository;
let repository: Repository;
const ctx = { projectId: 'project-local-refs', author: systemAuthor };

beforeAll(() => {
  const registry = definitionSearchParameters();
  // One without the server's address: what was stored before this rule.
  legacy = new Repository(database(), registry);
  repository = new Repository(database(), registry, { server: new ServerAddress('http://localhost:8461/', 8461) });
});

const create = <T extends Resource>(on: Repository, resource: T) => on.create(ctx, resource) as Promise<T & Resource>;

describe('references to this server’s own FHIR base', () => {
  it('are stored as Type/id, in the patient compartment, for the server itself (imports, seeds) too', async () => {
    const patient = await create(repository, { resourceType: 'Patient' });
    const observation = await create(repository, {
      resourceType: 'Observation',
      status: 'final',
      code: { text: 'x' },
      subject: { reference: `${base}Patient/${patient.id}` },
      performer: [{ reference: 'https://other.example/fhir/Practitioner/1' }],
    });
    expect(observation.subject?.reference).toBe(`Patient/${patient.id}`);
    expect(observation.performer?.[0].reference).toBe('https://other.example/fhir/Practitioner/1');
    expect(observation.meta?.compartment).toEqual([{ reference: `Patient/${patient.id}` }]);
  });

  it('a version stored with them before is no change of a read-only field, and gets its compartment back', async () => {
    const patient = await create(legacy, { resourceType: 'Patient' });
    const practitioner = await create(legacy, { resourceType: 'Practitioner' });
    const stored = await create<Communication>(legacy, {
      resourceType: 'Communication',
      status: 'in-progress',
      subject: { reference: `${base}Patient/${patient.id}` },
      sender: { reference: `${base}Practitioner/${practitioner.id}` },
    });
    // Before the rule an absolute URL counted for no check; it names no compartment now either.
    expect(stored.subject?.reference).toBe(`${base}Patient/${patient.id}`);
    expect(stored.meta?.compartment).toBeUndefined();

    const member = new AccessGuard(
      {
        projectId: ctx.projectId,
        sharedProjectId: 'shared-local-refs',
        superAdmin: false,
        policy: {
          resourceType: 'AccessPolicy',
          resource: [{ resourceType: 'Communication', readonlyFields: ['subject', 'sender'] }],
        },
      },
      repository.registry,
    );
    // The message sent back as it was read, marked completed: subject and sender "unchanged".
    const updated = await repository.transaction(
      (session) => session.update(ctx, { ...stored, status: 'completed' } as Communication),
      member,
    );
    const written = updated.resource as Communication;
    expect(written.subject?.reference).toBe(`Patient/${patient.id}`);
    expect(written.sender?.reference).toBe(`Practitioner/${practitioner.id}`);
    expect(written.meta?.compartment).toEqual([{ reference: `Patient/${patient.id}` }]);

    // …and the references it now holds as Type/id are checked as new ones: another project's patient is refused.
    const elsewhere = await repository.create({ ...ctx, projectId: 'project-elsewhere' }, { resourceType: 'Patient' });
    const legacyForeign = await create<Communication>(legacy, {
      resourceType: 'Communication',
      status: 'in-progress',
      subject: { reference: `${base}Patient/${elsewhere.id}` },
    });
    await expect(
      repository.transaction(
        (session) => session.update(ctx, { ...legacyForeign, status: 'completed' } as Communication),
        member,
      ),
    ).rejects.toMatchObject({ status: 400 });
  });
});
