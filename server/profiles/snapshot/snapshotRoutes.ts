import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Parameters, StructureDefinition } from '@medplum/fhirtypes';
import { callerOf } from '../../auth/authenticate';
import { errors } from '../../fhir/fhirError';
import { checkId } from '../../fhir/fhirOperations';
import { withoutProtectedFields } from '../../fhir/protectedFields';
import type { Repository, RepositorySession } from '../../fhir/repository';
import { queryValue } from '../../operations/operationQuery';
import { findStructureDefinition } from '../../operations/structureDefinitionLookup';
import type { QueryParams } from '../../search/searchRequest';
import { validateResource } from '../../validation/resourceValidator';
import { withGeneratedSnapshot } from './completeSnapshot';

export interface SnapshotRoutesOptions {
  repository: Repository;
}

/**
 * `StructureDefinition/$snapshot` (as HAPI FHIR offers it): the definition — posted as the body
 * or as the `definition` parameter, named by `url`, or the stored one at `StructureDefinition/{id}`
 * — returned with a snapshot generated from its differential. Nothing is stored; saving a
 * differential-only definition generates its snapshot on its own (repository create and update).
 */
export async function snapshotRoutes(app: FastifyInstance, options: SnapshotRoutesOptions): Promise<void> {
  const run = <T>(request: FastifyRequest, work: (session: RepositorySession) => Promise<T>) =>
    options.repository.transaction(work, callerOf(request).ctx.access);
  const answer = (definition: StructureDefinition) => withoutProtectedFields(definition);

  const byUrlOrBody = async (request: FastifyRequest) => {
    const url = queryValue(request.query as QueryParams, 'url') ?? parameterUrl(request.body);
    return run(request, async (session) => {
      const definition = url ? await findStructureDefinition(session, url) : definitionInBody(request.body);
      if (!definition) throw errors.notFoundWith(`Not found: no StructureDefinition with url ${url}`);
      return generate(session, definition);
    });
  };
  app.get('/fhir/R4/StructureDefinition/$snapshot', async (request, reply) =>
    reply.type('application/fhir+json').send(answer(await byUrlOrBody(request))),
  );
  app.post('/fhir/R4/StructureDefinition/$snapshot', async (request, reply) =>
    reply.type('application/fhir+json').send(answer(await byUrlOrBody(request))),
  );
  const byId = async (request: FastifyRequest<{ Params: { id: string } }>) => {
    checkId(request.params.id);
    return run(request, async (session) =>
      generate(session, (await session.read('StructureDefinition', request.params.id)) as StructureDefinition),
    );
  };
  app.get<{ Params: { id: string } }>('/fhir/R4/StructureDefinition/:id/$snapshot', async (request, reply) =>
    reply.type('application/fhir+json').send(answer(await byId(request))),
  );
  app.post<{ Params: { id: string } }>('/fhir/R4/StructureDefinition/:id/$snapshot', async (request, reply) =>
    reply.type('application/fhir+json').send(answer(await byId(request))),
  );
}

/** Generates from the differential; a definition without one keeps the snapshot it has. */
async function generate(session: RepositorySession, definition: StructureDefinition): Promise<StructureDefinition> {
  const issues = validateResource(definition);
  if (issues.length > 0) throw errors.validation(issues);
  if (!definition.differential?.element?.length) {
    if (definition.snapshot?.element?.length) return definition;
    throw errors.invalid(
      'The StructureDefinition has no differential to build a snapshot from',
      'StructureDefinition.differential',
    );
  }
  return withGeneratedSnapshot(session, { ...definition, snapshot: undefined });
}

function definitionInBody(body: unknown): StructureDefinition {
  const resource = body as { resourceType?: string } | undefined;
  if (resource?.resourceType === 'StructureDefinition') return resource as StructureDefinition;
  if (resource?.resourceType === 'Parameters') {
    const given = (resource as Parameters).parameter?.find((p) => p.name === 'definition')?.resource;
    if (given?.resourceType === 'StructureDefinition') return given as StructureDefinition;
  }
  throw errors.invalid(
    'Give the StructureDefinition as the body, as the "definition" parameter, or its url',
    'StructureDefinition',
  );
}

function parameterUrl(body: unknown): string | undefined {
  const parameters = body as Parameters | undefined;
  if (parameters?.resourceType !== 'Parameters') return undefined;
  const parameter = parameters.parameter?.find((p) => p.name === 'url');
  return parameter?.valueUri ?? parameter?.valueCanonical ?? parameter?.valueString ?? parameter?.valueUrl;
}
