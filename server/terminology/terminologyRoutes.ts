import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CodeSystem, Parameters, ParametersParameter, Resource, ValueSet } from '@medplum/fhirtypes';
import { errors } from '../fhir/fhirError';
import type { Repository, RequestContext } from '../fhir/repository';
import { parseSearchRequest } from '../search/searchRequest';
import type { SearchParameterRegistry } from '../search/searchParameterRegistry';
import { flattenConcepts } from './codeSystemConcepts';
import { subsumption } from './codeSubsumption';
import { expandValueSet, matchesFilter, type TerminologySource } from './valueSetExpander';

export interface TerminologyRoutesOptions {
  repository: Repository;
  registry: SearchParameterRegistry;
  /** The caller: terminology is read with its project and access policy like any other read. */
  contextOf(request: FastifyRequest): RequestContext;
}

const maxExpansion = 1000;

/** Operation inputs from the query string (GET) or a Parameters body (POST), query winning. */
function inputs(request: FastifyRequest): {
  get(name: string): string | undefined;
  resource(name: string): Resource | undefined;
  coding(name: string): ParametersParameter['valueCoding'];
} {
  const query = request.query as Record<string, string | string[] | undefined>;
  const body = request.body as Parameters | undefined;
  const parameters = body?.resourceType === 'Parameters' ? (body.parameter ?? []) : [];
  const find = (name: string) => parameters.find((p) => p.name === name);
  return {
    get(name) {
      const fromQuery = query[name];
      if (fromQuery !== undefined) return Array.isArray(fromQuery) ? fromQuery[fromQuery.length - 1] : fromQuery;
      const p = find(name);
      const value =
        p?.valueUri ??
        p?.valueString ??
        p?.valueCode ??
        p?.valueCanonical ??
        p?.valueUrl ??
        p?.valueInteger ??
        p?.valueBoolean;
      return value === undefined ? undefined : String(value);
    },
    resource: (name) => find(name)?.resource,
    coding: (name) => find(name)?.valueCoding,
  };
}

function boundedInteger(value: string | undefined, name: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw errors.invalid(`Invalid ${name} "${value}": expected a whole number`, name);
  return Math.min(Number(value), max);
}

/** ValueSet/$expand, CodeSystem/$lookup, CodeSystem/$subsumes and ValueSet/$validate-code over the stored terminology. */
export async function terminologyRoutes(app: FastifyInstance, options: TerminologyRoutesOptions): Promise<void> {
  const { repository, registry } = options;

  const byUrl = async <T extends Resource>(
    request: FastifyRequest,
    resourceType: 'ValueSet' | 'CodeSystem',
    canonical: string,
  ): Promise<T | undefined> => {
    const [url, version] = canonical.split('|');
    const query: Record<string, string> = { url, _sort: '-_lastUpdated', _count: '1' };
    if (version) query.version = version;
    const search = parseSearchRequest(resourceType, query, registry);
    // The newest wins: an implementer's copy of a ValueSet replaces the shared definition.
    const result = await repository.transaction((session) => session.search(search), options.contextOf(request).access);
    return result.resources[0] as T | undefined;
  };
  const sourceOf = (request: FastifyRequest): TerminologySource => ({
    codeSystem: (url) => byUrl<CodeSystem>(request, 'CodeSystem', url),
    valueSet: (url) => byUrl<ValueSet>(request, 'ValueSet', url),
  });

  const findValueSet = async (request: FastifyRequest, id?: string): Promise<ValueSet> => {
    if (id) {
      const access = options.contextOf(request).access;
      return (await repository.transaction((session) => session.read('ValueSet', id), access)) as ValueSet;
    }
    const input = inputs(request);
    const inline = input.resource('valueSet');
    if (inline?.resourceType === 'ValueSet') return inline as ValueSet;
    const url = input.get('url');
    if (!url) throw errors.invalid('Missing url: name the ValueSet to expand (url=…)', 'url');
    const valueSet = await sourceOf(request).valueSet(url);
    if (!valueSet) throw errors.notFoundWith(`ValueSet not found: ${url}`);
    return valueSet;
  };

  const expand = async (request: FastifyRequest, id?: string) => {
    const valueSet = await findValueSet(request, id);
    const input = inputs(request);
    const filter = input.get('filter') ?? '';
    const count = boundedInteger(input.get('count'), 'count', maxExpansion, maxExpansion);
    const offset = boundedInteger(input.get('offset'), 'offset', 0, Number.MAX_SAFE_INTEGER);
    const warnings: string[] = [];
    const codes = (await expandValueSet(valueSet, sourceOf(request), warnings)).filter((code) =>
      matchesFilter(code, filter),
    );
    const expanded: ValueSet = {
      resourceType: 'ValueSet',
      id: valueSet.id,
      url: valueSet.url,
      version: valueSet.version,
      name: valueSet.name,
      title: valueSet.title,
      status: valueSet.status ?? 'active',
      expansion: {
        timestamp: new Date().toISOString(),
        total: codes.length,
        offset,
        parameter: [
          ...(filter ? [{ name: 'filter', valueString: filter }] : []),
          ...warnings.map((warning) => ({ name: 'warning', valueString: warning })),
        ],
        contains: codes
          .slice(offset, offset + count)
          .map((c) => ({ system: c.system, code: c.code, display: c.display })),
      },
    };
    return expanded;
  };

  const send = <T>(reply: import('fastify').FastifyReply, body: T) => reply.type('application/fhir+json').send(body);

  app.get('/fhir/R4/ValueSet/$expand', async (request, reply) => send(reply, await expand(request)));
  app.post('/fhir/R4/ValueSet/$expand', async (request, reply) => send(reply, await expand(request)));
  app.get<{ Params: { id: string } }>('/fhir/R4/ValueSet/:id/$expand', async (request, reply) =>
    send(reply, await expand(request, request.params.id)),
  );

  const lookup = async (request: FastifyRequest): Promise<Parameters> => {
    const input = inputs(request);
    const coding = input.coding('coding');
    const system = input.get('system') ?? coding?.system;
    const code = input.get('code') ?? coding?.code;
    if (!system) throw errors.invalid('Missing system', 'system');
    if (!code) throw errors.invalid('Missing code', 'code');
    const codeSystem = await sourceOf(request).codeSystem(system);
    if (!codeSystem) throw errors.notFoundWith(`CodeSystem not found: ${system}`);
    const concept = flattenConcepts(codeSystem).find((c) => c.code === code);
    if (!concept) throw errors.notFoundWith(`Code "${code}" not found in ${system}`);
    return {
      resourceType: 'Parameters',
      parameter: [
        { name: 'name', valueString: codeSystem.name ?? codeSystem.title ?? system },
        ...(codeSystem.version ? [{ name: 'version', valueString: codeSystem.version }] : []),
        { name: 'display', valueString: concept.display ?? code },
        ...concept.parents.slice(0, 1).map((parent) => ({
          name: 'property',
          part: [
            { name: 'code', valueCode: 'parent' },
            { name: 'value', valueCode: parent },
          ],
        })),
        ...Object.entries(concept.properties).map(([name, value]) => ({
          name: 'property',
          part: [
            { name: 'code', valueCode: name },
            { name: 'value', valueString: value },
          ],
        })),
      ],
    };
  };
  app.get('/fhir/R4/CodeSystem/$lookup', async (request, reply) => send(reply, await lookup(request)));
  app.post('/fhir/R4/CodeSystem/$lookup', async (request, reply) => send(reply, await lookup(request)));

  /**
   * CodeSystem/$subsumes: whether code A is above, below or the same as code B in the system's
   * is-a hierarchy (nesting and `parent`/`subsumedBy` properties, as $expand's is-a filter reads it).
   */
  const subsumes = async (request: FastifyRequest, id?: string): Promise<Parameters> => {
    const input = inputs(request);
    const codingA = input.coding('codingA');
    const codingB = input.coding('codingB');
    let codeSystem: CodeSystem | undefined;
    if (id) {
      const access = options.contextOf(request).access;
      codeSystem = (await repository.transaction((session) => session.read('CodeSystem', id), access)) as CodeSystem;
    } else {
      const system = input.get('system') ?? codingA?.system ?? codingB?.system;
      if (!system) throw errors.invalid('Missing system: name the CodeSystem (system=…)', 'system');
      const version = input.get('version');
      codeSystem = await sourceOf(request).codeSystem(version ? `${system}|${version}` : system);
      if (!codeSystem) throw errors.notFoundWith(`CodeSystem not found: ${system}${version ? `|${version}` : ''}`);
    }
    const system = codeSystem.url ?? `CodeSystem/${codeSystem.id}`;
    for (const [name, coding] of [
      ['codingA', codingA],
      ['codingB', codingB],
    ] as const) {
      if (coding?.system && codeSystem.url && coding.system !== codeSystem.url) {
        throw errors.invalid(`${name} is from ${coding.system}, not from ${codeSystem.url}`, name);
      }
    }
    const codeA = input.get('codeA') ?? codingA?.code;
    const codeB = input.get('codeB') ?? codingB?.code;
    if (!codeA) throw errors.invalid('Missing codeA (or codingA)', 'codeA');
    if (!codeB) throw errors.invalid('Missing codeB (or codingB)', 'codeB');
    // Only an is-a hierarchy says that one concept is a kind of another; part-of or grouped-by do not.
    if (codeSystem.hierarchyMeaning && codeSystem.hierarchyMeaning !== 'is-a') {
      throw errors.notSupported(
        `The hierarchy of ${system} means "${codeSystem.hierarchyMeaning}", not "is-a": it does not say which code subsumes another`,
      );
    }
    const concepts = flattenConcepts(codeSystem);
    const known = new Set(concepts.map((c) => c.code));
    for (const [name, code] of [
      ['codeA', codeA],
      ['codeB', codeB],
    ] as const) {
      if (!known.has(code)) throw errors.notFoundWith(`Code "${code}" (${name}) not found in ${system}`);
    }
    return {
      resourceType: 'Parameters',
      parameter: [{ name: 'outcome', valueCode: subsumption(concepts, codeA, codeB) }],
    };
  };
  app.get('/fhir/R4/CodeSystem/$subsumes', async (request, reply) => send(reply, await subsumes(request)));
  app.post('/fhir/R4/CodeSystem/$subsumes', async (request, reply) => send(reply, await subsumes(request)));
  app.get<{ Params: { id: string } }>('/fhir/R4/CodeSystem/:id/$subsumes', async (request, reply) =>
    send(reply, await subsumes(request, request.params.id)),
  );
  app.post<{ Params: { id: string } }>('/fhir/R4/CodeSystem/:id/$subsumes', async (request, reply) =>
    send(reply, await subsumes(request, request.params.id)),
  );

  const validateCode = async (request: FastifyRequest): Promise<Parameters> => {
    const valueSet = await findValueSet(request);
    const input = inputs(request);
    const coding = input.coding('coding');
    const system = input.get('system') ?? coding?.system;
    const code = input.get('code') ?? coding?.code;
    const display = input.get('display') ?? coding?.display;
    if (!code) throw errors.invalid('Missing code', 'code');
    const codes = await expandValueSet(valueSet, sourceOf(request));
    const match = codes.find((c) => c.code === code && (!system || c.system === system));
    const parameter: ParametersParameter[] = [{ name: 'result', valueBoolean: match !== undefined }];
    if (!match) {
      parameter.push({
        name: 'message',
        valueString: `The code "${system ? `${system}|` : ''}${code}" is not in the value set ${valueSet.url ?? valueSet.id}`,
      });
    } else {
      if (match.display) parameter.push({ name: 'display', valueString: match.display });
      if (display && match.display && display !== match.display) {
        parameter.push({ name: 'message', valueString: `The display "${display}" differs from "${match.display}"` });
      }
    }
    return { resourceType: 'Parameters', parameter };
  };
  app.get('/fhir/R4/ValueSet/$validate-code', async (request, reply) => send(reply, await validateCode(request)));
  app.post('/fhir/R4/ValueSet/$validate-code', async (request, reply) => send(reply, await validateCode(request)));
}
