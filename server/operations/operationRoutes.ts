import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Parameters, Resource } from '@medplum/fhirtypes';
import { callerOf } from '../auth/authenticate';
import { errors, FhirError, outcomeOf } from '../fhir/fhirError';
import { checkId, checkResourceType } from '../fhir/fhirOperations';
import { refuseUnsupportedFormats } from '../fhir/formatNegotiation';
import { withoutProtectedFields } from '../fhir/protectedFields';
import type { Repository, RepositorySession } from '../fhir/repository';
import type { QueryParams } from '../search/searchRequest';
import { expandProfile } from './expandProfile';
import { findGraphDefinition, graphOperation } from './graphOperation';
import { queryValue } from './operationQuery';
import { patientEverything } from './patientEverything';
import { patientSummary } from './patientSummaryOperation';
import { patientIdByIdentifier, summaryParameters } from './patientSummaryParameters';
import { resourceToValidate, validateOperation } from './validateOperation';

export interface OperationRoutesOptions {
  repository: Repository;
  baseUrl: string;
}

type TypeParams = { type: string };
type InstanceParams = { type: string; id: string };

/**
 * FHIR operations beside the REST core: `Patient/{id}/$everything`, `Patient/{id}/$summary`,
 * `{Type}/$validate`, `StructureDefinition/$expand-profile`, `{Type}/{id}/$graph` and `Agent/$push`
 * (a Fastify plugin).
 * Every one runs in one transaction under the caller's access guard.
 */
export async function operationRoutes(app: FastifyInstance, options: OperationRoutesOptions): Promise<void> {
  const fhirBase = `${options.baseUrl}fhir/R4/`;
  // XML and other formats are refused with 406 before any work (formatNegotiation.ts).
  refuseUnsupportedFormats(app);
  const run = <T>(request: FastifyRequest, work: (session: RepositorySession) => Promise<T>) =>
    options.repository.transaction(work, callerOf(request).ctx.access);
  const send = (reply: FastifyReply, resource: Resource) =>
    reply.code(200).type('application/fhir+json').send(withoutProtectedFields(resource));

  app.get<{ Params: { id: string } }>('/fhir/R4/Patient/:id/$everything', async (request, reply) => {
    checkId(request.params.id);
    const bundle = await run(request, (session) =>
      patientEverything(session, request.params.id, request.query as QueryParams, fhirBase),
    );
    return send(reply, bundle);
  });

  // The International Patient Summary, of the patient named by id or by `identifier` (IPS IG).
  const summary = async (request: FastifyRequest<{ Params: { id?: string } }>, reply: FastifyReply) => {
    const { identifier } = summaryParameters(
      request.query as QueryParams,
      request.method === 'POST' ? request.body : undefined,
    );
    const { id } = request.params;
    if (id !== undefined) {
      checkId(id);
      if (identifier !== undefined) {
        throw errors.invalid(
          'identifier is for Patient/$summary: Patient/{id}/$summary names the patient',
          'identifier',
        );
      }
    } else if (identifier === undefined) {
      throw errors.invalid('Missing identifier (system|value), or ask Patient/{id}/$summary', 'identifier');
    }
    const profile = callerOf(request).profile;
    const bundle = await run(request, async (session) =>
      patientSummary(session, id ?? (await patientIdByIdentifier(session, identifier as string)), profile, fhirBase),
    );
    return send(reply, bundle);
  };
  app.get('/fhir/R4/Patient/:id/$summary', summary);
  app.post('/fhir/R4/Patient/:id/$summary', summary);
  app.get('/fhir/R4/Patient/$summary', summary);
  app.post('/fhir/R4/Patient/$summary', summary);

  app.post<{ Params: TypeParams }>('/fhir/R4/:type/$validate', async (request, reply) => {
    checkResourceType(request.params.type);
    const candidate = resourceToValidate(request.body);
    const profile = validateProfile(request);
    return send(
      reply,
      await run(request, (session) => validateOperation(session, request.params.type, candidate, undefined, profile)),
    );
  });

  app.post<{ Params: InstanceParams }>('/fhir/R4/:type/:id/$validate', async (request, reply) => {
    const { type, id } = request.params;
    checkResourceType(type);
    checkId(id);
    const outcome = await run(request, async (session) => {
      // Without a body, the stored resource is checked.
      const candidate = request.body === undefined ? await session.read(type, id) : resourceToValidate(request.body);
      return validateOperation(session, type, candidate, id, validateProfile(request));
    });
    return send(reply, outcome);
  });

  const expand = async (request: FastifyRequest, reply: FastifyReply) => {
    const url = queryValue(request.query as QueryParams, 'url') ?? uriParameter(request.body, 'url');
    if (!url) throw errors.invalid('Missing url (the canonical URL of the profile)', 'url');
    return send(reply, await run(request, (session) => expandProfile(session, url, fhirBase)));
  };
  app.get('/fhir/R4/StructureDefinition/$expand-profile', expand);
  app.post('/fhir/R4/StructureDefinition/$expand-profile', expand);

  app.get<{ Params: InstanceParams }>('/fhir/R4/:type/:id/$graph', async (request, reply) => {
    const { type, id } = request.params;
    checkResourceType(type);
    checkId(id);
    const graph = queryValue(request.query as QueryParams, 'graph');
    if (!graph) throw errors.invalid('Missing graph (a GraphDefinition id, name or canonical URL)', 'graph');
    const bundle = await run(request, async (session) =>
      graphOperation(session, type, id, await findGraphDefinition(session, graph), fhirBase),
    );
    return send(reply, bundle);
  });

  const noAgents = () => {
    throw new FhirError(
      501,
      outcomeOf([
        {
          severity: 'error',
          code: 'not-supported',
          details: {
            text: 'This server has no agents: Agent/$push cannot reach a device or channel. Nothing was sent.',
          },
        },
      ]),
    );
  };
  app.post('/fhir/R4/Agent/$push', noAgents);
  app.post('/fhir/R4/Agent/:id/$push', noAgents);
}

/** A URL parameter of a Parameters body (`valueUri`, `valueCanonical`, `valueString` or `valueUrl`). */
function uriParameter(body: unknown, name: string): string | undefined {
  const parameters = body as Parameters | undefined;
  if (parameters?.resourceType !== 'Parameters') return undefined;
  const parameter = parameters.parameter?.find((p) => p.name === name);
  return parameter?.valueUri ?? parameter?.valueCanonical ?? parameter?.valueString ?? parameter?.valueUrl;
}

/** `$validate`'s `profile`: in the query or the Parameters body (an empty one is a mistake, not "none"). */
function validateProfile(request: FastifyRequest): string | undefined {
  const profile = queryValue(request.query as QueryParams, 'profile') ?? uriParameter(request.body, 'profile');
  if (profile !== undefined && profile.trim() === '') {
    throw errors.invalid(
      'The profile parameter is empty; give the canonical URL of a profile, or leave it out',
      'profile',
    );
  }
  return profile;
}
