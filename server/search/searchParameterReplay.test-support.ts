import type { OperationOutcome, SearchParameter } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryFromString } from '../fhir/fhirOperations';
import { FhirError } from '../fhir/fhirError';
import { Repository, type RequestContext } from '../fhir/repository';
import { definitionSearchParameters } from '../serverRuntime';
import type { Database } from '../storage/database';
import { executeSearch } from './searchExecutor';
import { SearchParameterRegistry } from './searchParameterRegistry';
import { parseSearchRequest } from './searchRequest';
import { searchParameterIndexerOf } from './searchParameterIndexing';
import { startSearchParameterSync } from './searchParameterSync';

const shared = 'shared-project';

/**
 * The QA walk on SearchParameters an implementer saves, replayed at the repository (as the REST
 * routes call it) on a database of its own: (1) a second SearchParameter of a code the project has
 * was accepted, and deleting it unregistered the code although the first was still stored; (2) a
 * new SearchParameter found nothing in the resources written before it. Used by
 * searchParameterReplay.unit.test.ts (embedded PGlite) and searchParameterReplay.native.test.ts.
 */
export function searchParameterReplay(database: () => Database): void {
  let repository: Repository;
  let stop: () => Promise<void>;
  const run = Math.random().toString(36).slice(2, 8);
  const clinic = `clinic-${run}`;
  const other = `other-${run}`;
  const ctx = (projectId: string): RequestContext => ({ projectId, author: { reference: 'Practitioner/alice' } });

  const favouriteColour = (id?: string): SearchParameter => ({
    resourceType: 'SearchParameter',
    ...(id ? { id } : {}),
    url: `https://clinic.example/SearchParameter/favourite-colour-${id ?? 'first'}`,
    name: 'FavouriteColour',
    status: 'active',
    description: 'Favourite colour',
    code: 'favourite-colour',
    base: ['Patient'],
    type: 'token',
    expression: "Patient.extension.where(url = 'https://clinic.example/favourite-colour').value",
  });
  const patient = (colour: string) => ({
    resourceType: 'Patient' as const,
    extension: [{ url: 'https://clinic.example/favourite-colour', valueCode: colour }],
  });
  const observation = (category: string) => ({
    resourceType: 'Observation' as const,
    status: 'final' as const,
    code: { text: 'a lab result' },
    category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: category }] }],
  });

  /** The ids of the project's resources `Type?query` finds with the project's search parameters. */
  async function search(projectId: string, resourceType: string, query: string): Promise<string[]> {
    const request = parseSearchRequest(
      resourceType,
      queryFromString(`${query}&_count=1000`),
      repository.registry.forProject(projectId),
    );
    const result = await executeSearch(database(), request);
    return result.resources
      .filter((resource) => resource.meta?.project === projectId)
      .map((resource) => resource.id as string)
      .sort();
  }

  beforeAll(async () => {
    const db = database();
    const registry = definitionSearchParameters();
    repository = new Repository(db, registry);
    stop = await startSearchParameterSync(repository, db, registry, shared, () => undefined, {
      batchSize: 2,
      pauseMs: 0,
    });
  }, 120_000);

  afterAll(async () => {
    await stop?.();
  });

  describe('a second SearchParameter of a code the project already has', () => {
    it('is refused with a 400 naming the one there is, and the first keeps working', async () => {
      const first = await repository.create(ctx(clinic), favouriteColour());
      const teal = await repository.create(ctx(clinic), patient('teal'));
      const refused = await repository.create(ctx(clinic), favouriteColour('second')).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(FhirError);
      expect((refused as FhirError).status).toBe(400);
      const issue = ((refused as FhirError).outcome as OperationOutcome).issue[0];
      expect(issue.details?.text).toContain(
        `The search parameter "favourite-colour" of Patient is already defined in this project by SearchParameter/${first.id}`,
      );
      expect(issue.expression).toEqual(['SearchParameter.code']);
      // On a base that overlaps (Resource names every type), too; in another project it is that project's own.
      const onResource = { ...favouriteColour('any'), base: ['Resource'] as unknown as SearchParameter['base'] };
      await expect(repository.create(ctx(clinic), onResource)).rejects.toThrow(/already defined in this project/);
      await repository.create(ctx(other), favouriteColour('elsewhere'));
      expect(await search(clinic, 'Patient', 'favourite-colour=teal')).toEqual([teal.id]);
    });

    it('left from before the check: deleting or changing one leaves the other working', async () => {
      const project = `legacy-${run}`;
      const original = await repository.create(ctx(project), favouriteColour());
      const teal = await repository.create(ctx(project), patient('teal'));
      // Saved past the check, as before it existed: a repository without the server's hooks.
      const unchecked = new Repository(database(), repository.registry);
      const duplicate = await unchecked.create(ctx(project), favouriteColour('duplicate'));
      const second = await unchecked.create(ctx(project), favouriteColour('second-duplicate'));
      expect(await search(project, 'Patient', 'favourite-colour=teal')).toEqual([teal.id]);

      // A change of one that moves it to another code.
      await repository.update(ctx(project), { ...(second as SearchParameter), code: 'favourite-color' });
      expect(await search(project, 'Patient', 'favourite-colour=teal')).toEqual([teal.id]);
      await repository.delete(ctx(project), 'SearchParameter', duplicate.id as string);
      expect(await search(project, 'Patient', 'favourite-colour=teal')).toEqual([teal.id]);
      // And once the registry has reloaded what is stored (as after the cluster bus's message).
      await vi.waitFor(() =>
        expect(repository.registry.hasProjectParameter(project, duplicate.id as string)).toBe(false),
      );
      expect(await search(project, 'Patient', 'favourite-colour=teal')).toEqual([teal.id]);
      expect(repository.registry.forProject(project).get('Patient', 'favourite-colour')?.sourceId).toBe(original.id);

      // A registry loaded from the database with both stored, in either order, answers with one of them.
      for (const order of [1, -1]) {
        const restarted = new SearchParameterRegistry([], definitionSearchParameters());
        const both = [original, duplicate].map((p) => ({ ...p }) as SearchParameter);
        restarted.replaceProjectParameters(project, order > 0 ? both : both.reverse());
        restarted.removeProjectParameter(project, duplicate.id as string);
        expect(restarted.forProject(project).get('Patient', 'favourite-colour')?.sourceId).toBe(original.id);
      }
    });
  });

  describe('a new SearchParameter and the resources written before it', () => {
    it("finds them once the project's indexing is done, in that project only", async () => {
      const project = `lab-${run}`;
      const before = [];
      for (let i = 0; i < 5; i++) before.push((await repository.create(ctx(project), observation('laboratory'))).id);
      await repository.create(ctx(project), observation('vital-signs'));
      const elsewhere = [];
      for (let i = 0; i < 3; i++) elsewhere.push((await repository.create(ctx(other), observation('laboratory'))).id);
      expect(await search(project, 'Observation', 'category=laboratory')).toEqual([...before].sort());

      const parameter = await repository.create(ctx(project), {
        resourceType: 'SearchParameter',
        url: 'https://clinic.example/SearchParameter/qa-category',
        name: 'QaCategory',
        status: 'active',
        description: 'Category code',
        code: 'qa-category',
        base: ['Observation'],
        type: 'token',
        expression: 'Observation.category.coding.code',
      } as SearchParameter);
      const indexer = searchParameterIndexerOf(repository);
      expect(indexer).toBeDefined();
      const state = await indexer!.status(database(), project, parameter.id as string);
      expect(['queued', 'indexing', 'completed']).toContain(state.status);
      await vi.waitFor(
        async () =>
          expect((await indexer!.status(database(), project, parameter.id as string)).status).toBe('completed'),
        { timeout: 20_000, interval: 50 },
      );
      const done = await indexer!.status(database(), project, parameter.id as string);
      // Six Observations of the project, in batches of two; none of the other project's.
      expect(done.job?.output?.parameter?.find((p) => p.name === 'count')?.valueInteger).toBe(6);
      expect(await search(project, 'Observation', 'qa-category=laboratory')).toEqual([...before].sort());

      // The other project's resources got no index rows of the code (its own searches do not know it).
      const rows = await database().query<{ n: number }>(
        `SELECT count(*)::integer AS n FROM search_token WHERE code = 'qa-category' AND resource_id = ANY($1::text[])`,
        [elsewhere],
      );
      expect(Number(rows[0].n)).toBe(0);
      expect(() =>
        parseSearchRequest(
          'Observation',
          queryFromString('qa-category=laboratory'),
          repository.registry.forProject(other),
        ),
      ).toThrow(/Unknown search parameter "qa-category"/);

      // A change of its expression is indexed again; one that changes nothing indexed is not.
      const { resource: changed } = await repository.update(ctx(project), {
        ...(parameter as SearchParameter),
        expression:
          "Observation.category.coding.where(system = 'http://terminology.hl7.org/CodeSystem/observation-category').code",
      });
      await vi.waitFor(
        async () => {
          const now = await indexer!.status(database(), project, parameter.id as string);
          expect(now.status).toBe('completed');
          expect(now.job?.output?.parameter?.find((p) => p.name === 'version')?.valueString).toBe(
            changed.meta?.versionId,
          );
        },
        { timeout: 20_000, interval: 50 },
      );
      expect(await search(project, 'Observation', 'qa-category=vital-signs')).toHaveLength(1);
    });
  });
}
