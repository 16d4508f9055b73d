import { randomUUID } from 'node:crypto';
import type { Meta, Reference, Resource, SearchParameter } from '@medplum/fhirtypes';
import { validateSearchParameter } from '../validation/searchParameterRules';
import type { Database, SqlExecutor } from '../storage/database';
import { extractIndexRows, type IndexRows } from '../search/indexRows';
import type { SearchParameterRegistry } from '../search/searchParameterRegistry';
import { validateResource } from '../validation/resourceValidator';
import { errors } from './fhirError';
import { patientCompartments } from './patientCompartment';
import { keepProtectedFields } from './protectedFields';
import { StatisticsMaintenance } from '../storage/statisticsMaintenance';
import { flushWrites, type PendingWrite } from './writeFlush';
import { executeSearch, type SearchResult } from '../search/searchExecutor';
import type { SearchRequest } from '../search/searchRequest';
import type { SearchScope } from '../search/searchSql';

/** Who is writing, and into which project. */
export interface RequestContext {
  projectId: string;
  author: Reference;
}

export type HistoryOperation = 'create' | 'update' | 'delete';

export interface HistoryRecord {
  resource: Resource;
  operation: HistoryOperation;
}

export interface HistoryPage {
  records: HistoryRecord[];
  /** Set when more records follow this page. */
  hasMore: boolean;
  total?: number;
}

export interface HistoryQuery {
  resourceType?: string;
  id?: string;
  count: number;
  offset: number;
  since?: string;
}

interface CurrentRow {
  content: Resource;
  deleted: boolean;
  version_id: string;
}

/** A resource's ETag value: the version id in a weak ETag. */
export function etagOf(resource: Resource): string {
  return `W/"${resource.meta?.versionId ?? ''}"`;
}

/** Accepts `W/"3"`, `"3"` or `3` as sent in If-Match. */
export function versionFromEtag(etag: string): string {
  return etag.replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
}

export class Repository {
  private readonly statistics: StatisticsMaintenance;

  constructor(
    readonly db: Database,
    readonly registry: SearchParameterRegistry,
  ) {
    this.statistics = new StatisticsMaintenance(db);
  }

  /** Runs `work` in one database transaction; writes are flushed before it commits. */
  async transaction<T>(work: (session: RepositorySession) => Promise<T>): Promise<T> {
    let session: RepositorySession | undefined;
    const result = await this.db.transaction(async (tx) => {
      session = new RepositorySession(tx, this.registry);
      const value = await work(session);
      await session.flush();
      return value;
    });
    // Only what committed may change the server's behaviour (new search parameters).
    session?.applyCommitted();
    this.statistics.recordWrites(session?.writeCount ?? 0);
    return result;
  }

  create(ctx: RequestContext, resource: Resource): Promise<Resource> {
    return this.transaction((s) => s.create(ctx, resource));
  }

  read(resourceType: string, id: string): Promise<Resource> {
    return this.transaction((s) => s.read(resourceType, id));
  }

  update(ctx: RequestContext, resource: Resource, ifMatch?: string) {
    return this.transaction((s) => s.update(ctx, resource, ifMatch));
  }

  delete(ctx: RequestContext, resourceType: string, id: string): Promise<void> {
    return this.transaction((s) => s.delete(ctx, resourceType, id));
  }
}

/** The repository's operations inside one open transaction. */
export class RepositorySession {
  private pending: PendingWrite[] = [];
  /** Versions written in this session (for statistics maintenance). */
  writeCount = 0;
  private readonly committedEffects: (() => void)[] = [];

  constructor(
    readonly tx: SqlExecutor,
    private readonly registry: SearchParameterRegistry,
  ) {}

  /** Runs the effects of this session's writes once its transaction has committed. */
  applyCommitted(): void {
    for (const effect of this.committedEffects.splice(0)) effect();
  }

  /** Stores what is buffered: many creates in a row become one statement per table. */
  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const writes = this.pending;
    this.pending = [];
    this.writeCount += writes.length;
    await flushWrites(this.tx, writes);
  }

  /** Creates `resource` with a server-assigned id (or `options.id`, for update-as-create). */
  async create(
    ctx: RequestContext,
    resource: Resource,
    options: { id?: string; trusted?: boolean; fresh?: boolean } = {},
  ): Promise<Resource> {
    const id = options.id ?? randomUUID();
    const stored = this.prepare(ctx, { ...resource, id }, options.trusted ?? false);
    // A caller-chosen id may already have index rows (update-as-create of a deleted resource);
    // `fresh` is the caller's promise that it cannot.
    this.buffer(stored.resource, 'create', stored.rows, !options.id || (options.fresh ?? false));
    return stored.resource;
  }

  async read(resourceType: string, id: string): Promise<Resource> {
    const row = await this.current(resourceType, id, false);
    if (!row) throw errors.notFound();
    if (row.deleted) throw errors.gone();
    return row.content;
  }

  /** Reads the current row, or undefined when the resource never existed. */
  async readCurrent(resourceType: string, id: string): Promise<CurrentRow | undefined> {
    return this.current(resourceType, id, false);
  }

  async readVersion(resourceType: string, id: string, versionId: string): Promise<Resource> {
    await this.flush();
    const rows = await this.tx.query<{ content: Resource; operation: HistoryOperation }>(
      'SELECT content, operation FROM resource_history WHERE version_id = $1 AND resource_type = $2 AND id = $3',
      [versionId, resourceType, id],
    );
    if (rows.length === 0) throw errors.notFound();
    if (rows[0].operation === 'delete') throw errors.gone();
    return rows[0].content;
  }

  /** PUT semantics: replaces the resource, or creates it with the given id when it does not exist. */
  async update(
    ctx: RequestContext,
    resource: Resource,
    ifMatch?: string,
  ): Promise<{ resource: Resource; created: boolean }> {
    if (!resource.id) throw errors.invalid('Missing id', `${resource.resourceType}.id`);
    const existing = await this.current(resource.resourceType, resource.id, true);
    if (ifMatch !== undefined) {
      const expected = versionFromEtag(ifMatch);
      if (!existing || existing.deleted || existing.version_id !== expected) {
        throw errors.preconditionFailed(
          `Version mismatch: If-Match ${ifMatch} but the current version is ${existing && !existing.deleted ? existing.version_id : 'none'}`,
        );
      }
    }
    if (!existing) {
      return { resource: await this.create(ctx, resource, { id: resource.id }), created: true };
    }
    const stored = this.prepare(ctx, keepProtectedFields(resource, existing.content), false);
    this.buffer(stored.resource, 'update', stored.rows, false);
    return { resource: stored.resource, created: false };
  }

  async delete(ctx: RequestContext, resourceType: string, id: string): Promise<void> {
    const existing = await this.current(resourceType, id, true);
    if (!existing) throw errors.notFound();
    if (existing.deleted) return; // Deleting twice is not an error, and adds no version.
    const tombstone: Resource = {
      resourceType,
      id,
      meta: {
        versionId: randomUUID(),
        lastUpdated: new Date().toISOString(),
        author: ctx.author,
        project: existing.content.meta?.project ?? ctx.projectId,
      },
    } as Resource;
    if (resourceType === 'SearchParameter') this.committedEffects.push(() => this.registry.removeSource(id));
    this.pending.push({
      resource: tombstone,
      operation: 'delete',
      rows: undefined,
      compartments: [],
      isNew: false,
    });
  }

  async search(request: SearchRequest, scope: SearchScope = {}): Promise<SearchResult> {
    await this.flush();
    return executeSearch(this.tx, request, scope);
  }

  async history(query: HistoryQuery): Promise<HistoryPage> {
    await this.flush();
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.resourceType) {
      params.push(query.resourceType);
      where.push(`resource_type = $${params.length}`);
    }
    if (query.id) {
      params.push(query.id);
      where.push(`id = $${params.length}`);
    }
    if (query.since) {
      params.push(query.since);
      where.push(`last_updated >= $${params.length}`);
    }
    const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    params.push(query.count + 1, query.offset);
    const rows = await this.tx.query<{ content: Resource; operation: HistoryOperation }>(
      `SELECT content, operation FROM resource_history ${clause}
       ORDER BY last_updated DESC, version_id DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    const page: HistoryPage = {
      records: rows.slice(0, query.count).map((row) => ({ resource: row.content, operation: row.operation })),
      hasMore: rows.length > query.count,
    };
    if (query.id) {
      const counted = await this.tx.query<{ total: number }>(
        `SELECT count(*)::int AS total FROM resource_history ${clause}`,
        params.slice(0, -2),
      );
      page.total = Number(counted[0].total);
    }
    return page;
  }

  private async current(resourceType: string, id: string, forUpdate: boolean): Promise<CurrentRow | undefined> {
    await this.flush();
    const rows = await this.tx.query<CurrentRow>(
      `SELECT content, deleted, version_id FROM resources WHERE resource_type = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
      [resourceType, id],
    );
    return rows[0];
  }

  private prepare(ctx: RequestContext, input: Resource, trusted: boolean): { resource: Resource; rows: IndexRows } {
    if (!trusted) {
      const issues = validateResource(input);
      if (issues.length > 0) throw errors.validation(issues);
    }
    if (!trusted && input.resourceType === 'SearchParameter') {
      const issues = validateSearchParameter(input as SearchParameter);
      if (issues.length > 0) throw errors.validation(issues);
      const parameter = input as SearchParameter;
      this.committedEffects.push(() => {
        this.registry.removeSource(parameter.id as string);
        this.registry.add(parameter, parameter.id);
      });
    }
    const meta: Meta = {
      ...input.meta,
      versionId: randomUUID(),
      lastUpdated: new Date().toISOString(),
      author: ctx.author,
      project: ctx.projectId,
    };
    delete meta.compartment;
    const resource = { ...input, meta } as Resource;
    const rows = extractIndexRows(
      resource as unknown as Record<string, unknown>,
      this.registry.forType(resource.resourceType),
      (url) => this.registry.typeOfUrl(url),
    );
    const compartments = patientCompartments(resource.resourceType, resource.id as string, rows.reference);
    if (compartments.length > 0) meta.compartment = compartments.map((reference) => ({ reference }));
    return { resource, rows };
  }

  private buffer(resource: Resource, operation: HistoryOperation, rows: IndexRows, isNew: boolean): void {
    this.pending.push({
      resource,
      operation,
      rows,
      compartments: (resource.meta?.compartment ?? []).map((c) => c.reference as string),
      isNew,
    });
  }
}
