/**
 * Test support (not part of the public surface): the real FhirClient over a small versioned FHIR
 * store shared by several "tabs" (one client each, as two browser tabs of one account are) — reads,
 * searches by type, create, PUT with If-Match answered 412 on a version mismatch, and transaction
 * Bundles that are all-or-nothing with the same version check, as the server does. Each version
 * records who wrote it (`meta.author`), so tests can check the history.
 */
import type { Bundle, BundleEntry, OperationOutcome, Resource } from '@medplum/fhirtypes';
import { FhirClient } from '../../data-provider/client';
import { FakeFetch, jsonResponse, type RecordedCall } from '../../data-provider/client/fakeFetch';

const header = (call: RecordedCall, name: string): string | undefined =>
  Object.entries(call.headers).find(([key]) => key.toLowerCase() === name)?.[1];

const outcome = (code: string, text: string): OperationOutcome => ({
  resourceType: 'OperationOutcome',
  issue: [{ severity: 'error', code: code as 'invalid', details: { text } }],
});

class Refused extends Error {
  constructor(
    readonly status: number,
    readonly outcome: OperationOutcome,
  ) {
    super(outcome.issue?.[0]?.details?.text);
  }
}

export interface VisitNoteServer {
  /** A tab: its own client (and recorded calls), writing as `author`. */
  tab(author: string): { client: FhirClient; fake: FakeFetch };
  /** Stores resources as they are now (seeding), at their next version. */
  put(...resources: Resource[]): void;
  get<T extends Resource>(reference: string): T | undefined;
  /** Every version of `reference`, oldest first. */
  history<T extends Resource>(reference: string): T[];
  /** Every write (create, update, transaction) any tab sent. */
  writes(): RecordedCall[];
}

export function visitNoteServer(): VisitNoteServer {
  const store = new Map<string, Resource>();
  const versions = new Map<string, Resource[]>();
  const fakes: FakeFetch[] = [];
  let ids = 0;
  let clock = Date.parse('2026-03-02T09:00:00Z');

  const write = (resource: Resource, author?: string): Resource => {
    const id = resource.id ?? `r${++ids}`;
    const key = `${resource.resourceType}/${id}`;
    const version = String(Number(store.get(key)?.meta?.versionId ?? 0) + 1);
    clock += 60_000;
    const stored = {
      ...resource,
      id,
      meta: {
        versionId: version,
        lastUpdated: new Date(clock).toISOString(),
        ...(author ? { author: { reference: author } } : {}),
      },
    } as Resource;
    store.set(key, stored);
    versions.set(key, [...(versions.get(key) ?? []), stored]);
    return stored;
  };

  const checkVersion = (key: string, ifMatch: string | undefined) => {
    const current = store.get(key);
    if (ifMatch && ifMatch !== `W/"${current?.meta?.versionId ?? ''}"`) {
      throw new Refused(
        412,
        outcome(
          'conflict',
          `Version mismatch: If-Match ${ifMatch} but the current version is ${current?.meta?.versionId ?? 'none'}`,
        ),
      );
    }
  };

  const answerGet = (relative: string): { status: number; body: Resource } => {
    const [path = '', query = ''] = relative.split('?');
    const [type = '', id] = path.split('/');
    if (!id) {
      const params = new URLSearchParams(query);
      const matches = [...store.values()].filter(
        (resource) =>
          resource.resourceType === type &&
          (!params.get('status') || (resource as { status?: string }).status === params.get('status')),
      );
      const bundle: Bundle = {
        resourceType: 'Bundle',
        type: 'searchset',
        total: matches.length,
        entry: matches.map((resource) => ({ resource, search: { mode: 'match' } })),
      };
      return { status: 200, body: bundle };
    }
    const found = store.get(`${type}/${id}`);
    return found ? { status: 200, body: found } : { status: 404, body: outcome('not-found', 'Not found') };
  };

  const transaction = (bundle: Bundle, author: string): Bundle => {
    const entries = bundle.entry ?? [];
    entries.forEach((entry, index) => {
      if (entry.request?.method !== 'PUT') return;
      try {
        checkVersion(entry.request.url, entry.request.ifMatch);
      } catch (error) {
        if (error instanceof Refused) {
          const issue = { ...error.outcome.issue?.[0], expression: [`Bundle.entry[${index}]`] };
          throw new Refused(error.status, {
            ...error.outcome,
            issue: [issue as NonNullable<OperationOutcome['issue']>[number]],
          });
        }
        throw error;
      }
    });
    // Ids first, so that urn:uuid references between the entries resolve.
    const urls = new Map<string, string>();
    const planned = entries.map((entry) => {
      const id = entry.request?.method === 'PUT' ? entry.request.url.split('/')[1] : `r${++ids}`;
      const reference = `${entry.resource?.resourceType}/${id}`;
      if (entry.fullUrl) urls.set(entry.fullUrl, reference);
      return { entry, id };
    });
    const answers: BundleEntry[] = planned.map(({ entry, id }) => {
      let text = JSON.stringify(entry.resource);
      for (const [from, to] of urls) text = text.split(from).join(to);
      const stored = write({ ...(JSON.parse(text) as Resource), id }, author);
      return {
        response: {
          status: entry.request?.method === 'PUT' ? '200' : '201',
          location: `${stored.resourceType}/${stored.id}/_history/${stored.meta?.versionId}`,
        },
      };
    });
    return { resourceType: 'Bundle', type: 'transaction-response', entry: answers };
  };

  const refused = (error: unknown) => {
    if (error instanceof Refused) return jsonResponse(error.outcome, error.status);
    throw error;
  };

  return {
    tab(author) {
      const fake = new FakeFetch();
      fakes.push(fake);
      const relative = (call: RecordedCall) => decodeURIComponent(call.url.split('/fhir/R4/')[1] ?? '');
      fake.on('POST', /\/fhir\/R4\/?$/, (call) => {
        try {
          return jsonResponse(transaction(JSON.parse(call.body as string) as Bundle, author));
        } catch (error) {
          return refused(error);
        }
      });
      fake.on('POST', /\/fhir\/R4\/[A-Za-z]+$/, (call) => {
        const { id: _id, ...resource } = JSON.parse(call.body as string) as Resource;
        return jsonResponse(write(resource as Resource, author), 201);
      });
      fake.on('GET', /\/fhir\/R4\//, (call) => {
        const { status, body } = answerGet(relative(call));
        return jsonResponse(body, status);
      });
      fake.on('PUT', /\/fhir\/R4\/[A-Za-z]+\/[^/?]+$/, (call) => {
        const key = relative(call);
        try {
          checkVersion(key, header(call, 'if-match'));
        } catch (error) {
          return refused(error);
        }
        return jsonResponse(write(JSON.parse(call.body as string) as Resource, author));
      });
      const client = new FhirClient({ baseUrl: 'https://hearth.test/', fetch: fake.fetch, autoBatchTime: 0 });
      return { client, fake };
    },
    put: (...resources) => resources.forEach((resource) => write(resource)),
    get: <T extends Resource>(reference: string) => store.get(reference) as T | undefined,
    history: <T extends Resource>(reference: string) => (versions.get(reference) ?? []) as T[],
    writes: () => fakes.flatMap((fake) => fake.calls.filter((call) => call.method !== 'GET')),
  };
}
