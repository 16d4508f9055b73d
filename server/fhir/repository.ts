import { randomUUID } from 'node:crypto';
import type {
  Binary,
  Meta,
  OperationOutcomeIssue,
  ProjectMembership,
  Reference,
  Resource,
  SearchParameter,
} from '@medplum/fhirtypes';
import { validateSearchParameter } from '../validation/searchParameterRules';
import { needsSnapshot, withGeneratedSnapshot } from '../profiles/snapshot/completeSnapshot';
import type { Database, SqlExecutor } from '../storage/database';
import { extractIndexRows, type IndexRows } from '../search/indexRows';
import { searchExpressionLimits, searchParameterCostIssues } from '../search/searchExpressionCost';
import type { SearchParameterRegistry } from '../search/searchParameterRegistry';
import { validateResource } from '../validation/resourceValidator';
import { indexLimitCheck } from '../validation/resourceLimits';
import { errors, FhirError, outcomeOf } from './fhirError';
import { checkResourceId } from './resourceId';
import { patientCompartments } from './patientCompartment';
import { keepProtectedFields, mayHoldProtectedFields } from './protectedFields';
import { mayNameBinary } from '../binary/attachmentUrls';
import { checkKeepsAnAdmin } from './lastAdminGuard';
import { indexedReferences, literalReferences, type LiteralReference } from './literalReferences';
import { withLocalReferences, type ServerAddress } from './serverAddress';
import { limitsWrittenRows } from './referenceAccess';
import { StatisticsMaintenance } from '../storage/statisticsMaintenance';
import { flushWrites, type PendingWrite } from './writeFlush';
import { PreconditionGate, type ReadPrecondition } from './readPrecondition';
import { ReadBatcher } from './readBatcher';
import { executeSearch, type SearchResult } from '../search/searchExecutor';
import { withLocalReferenceValues } from '../search/localReferenceValues';
import type { SearchRequest } from '../search/searchRequest';
import { SqlParams } from '../search/searchSql';
import type { AccessGuard } from '../auth/accessGuard';
import type { AccessInteraction } from '../../data-provider/access';

/** Who is writing, and into which project. */
export interface RequestContext {
  projectId: string;
  author: Reference;
  /** Set for signed-in callers: every read and write of the request is checked by it. */
  access?: AccessGuard;
}

export type HistoryOperation = 'create' | 'update' | 'delete';

/** A version that has committed, as stored (not redacted for any caller). */
export interface CommittedWrite {
  operation: HistoryOperation;
  resource: Resource;
  /** For a delete: the content the resource had before it was deleted. */
  previous?: Resource;
}

/** Told about every committed transaction's writes (realtime notifications, bot triggers). */
export type CommitListener = (writes: readonly CommittedWrite[]) => void;

/** Runs inside a transaction that wrote something, just before it commits (a NOTIFY that must commit with it). */
export type BeforeCommitHook = (tx: SqlExecutor, writes: readonly CommittedWrite[]) => Promise<void>;

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
  project_id: string | null;
}

/** A current row with its content as the stored JSON text. */
interface StoredRow {
  content: string;
  deleted: boolean;
  version_id: string;
  project_id: string | null;
  /** last_updated in milliseconds since the epoch. */
  last_modified: number;
}

/** A resource as its stored JSON text, handed to the client unchanged (RepositorySession.readForAnswer). */
export interface StoredJson {
  json: string;
  versionId: string;
  /** meta.lastUpdated, in milliseconds since the epoch. */
  lastModified: number;
}

/** The select lists of CurrentRow and StoredRow, for the table alias given (`r.` or none). */
const currentRowColumns = (t: string) => `${t}content, ${t}deleted, ${t}version_id, ${t}project_id`;
// last_updated comes from its column, not from content (`content #>> '{meta,lastUpdated}'`): every
// use of a compressed jsonb value decompresses it again.
const storedRowColumns = (t: string) =>
  `${t}content::text AS content, ${t}deleted, ${t}version_id, ${t}project_id, extract(epoch FROM ${t}last_updated)::float8 * 1000 AS last_modified`;

/**
 * The project a version belongs to: the writer's, except that a membership lives in the project it
 * grants (a super admin adding someone to a clinic must not file the membership under their own
 * project, where the clinic's admins could not see it). Non-super-admins cannot name another
 * project here: the access guard refuses it before the write.
 */
function owningProject(ctx: RequestContext, resource: Resource): string {
  if (resource.resourceType === 'ProjectMembership') {
    const match = /^Project\/([A-Za-z0-9\-.]{1,64})$/.exec(resource.project?.reference ?? '');
    if (match) return match[1];
  }
  return ctx.projectId;
}

/**
 * A project's SearchParameter may not take a code the base definitions use for one of its base
 * types: it would change what that code means in the project's searches and access-policy
 * criteria. (It could not change other projects: the base definition wins in every registry.)
 */
function shadowingIssues(registry: SearchParameterRegistry, parameter: SearchParameter): OperationOutcomeIssue[] {
  return registry.shadowedBy(parameter).map(({ base, code }) => ({
    severity: 'error',
    code: 'invalid',
    details: {
      text: `The search parameter "${code}" of ${base} is a base definition and cannot be replaced; choose another code`,
    },
    expression: ['SearchParameter.code'],
  }));
}

/** A resource's ETag value: the version id in a weak ETag. */
export function etagOf(resource: Resource): string {
  return `W/"${resource.meta?.versionId ?? ''}"`;
}

/** Accepts `W/"3"`, `"3"` or `3` as sent in If-Match. */
export function versionFromEtag(etag: string): string {
  return etag.replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
}

/** A reference a caller's write added, checked before the transaction commits (checkReferences). */
interface AddedReference extends LiteralReference {
  /**
   * Set when written by a caller limited to some rows of the written type (a compartment or
   * criteria, referenceAccess.ts): the patient compartments of the resource that holds the
   * reference. The target must then be one the caller may read, or one about none but these patients.
   */
  within?: readonly string[];
}

export interface RepositoryOptions {
  /**
   * This server's address (BASE_URL): references to its own FHIR base are stored in their relative
   * form, and checked as such. Without it (tests, tools) references are stored as written.
   */
  server?: ServerAddress;
}

export class Repository {
  private readonly statistics: StatisticsMaintenance;
  private readonly commitListeners = new Set<CommitListener>();
  private readonly beforeCommitHooks = new Set<BeforeCommitHook>();

  private readonly reads: ReadBatcher;
  readonly server?: ServerAddress;

  constructor(
    readonly db: Database,
    readonly registry: SearchParameterRegistry,
    options: RepositoryOptions = {},
  ) {
    this.statistics = new StatisticsMaintenance(db);
    this.reads = new ReadBatcher(db.keyLookups ?? db);
    this.server = options.server;
  }

  /**
   * Runs `work` in one database transaction; writes are flushed before it commits. With `access`,
   * every call of the session is checked against the caller's project and access policy.
   */
  async transaction<T>(work: (session: RepositorySession) => Promise<T>, access?: AccessGuard): Promise<T> {
    let session: RepositorySession | undefined;
    const result = await this.db.transaction(async (tx) => {
      // Searches of the session see the caller's project's SearchParameters (and the base ones).
      session = new RepositorySession(
        tx,
        this.registry.forProject(access?.options.projectId),
        access,
        false,
        this.server,
      );
      const value = await work(session);
      // Checked once all of the transaction is written: its entries may point at each other.
      await session.checkReferences();
      await session.flush();
      if (session.written.length > 0) for (const hook of this.beforeCommitHooks) await hook(tx, session.written);
      return value;
    });
    // Only what committed may change the server's behaviour (new search parameters).
    session?.applyCommitted();
    this.statistics.recordWrites(session?.writeCount ?? 0);
    if (session && session.written.length > 0) this.announce(session.written);
    return result;
  }

  /**
   * Runs `work`, which only reads, on the database without a transaction: a read by id is then one
   * round trip instead of three (BEGIN, SELECT, COMMIT). Every access check applies as in
   * `transaction`; a write attempted here is refused before it reaches the database.
   */
  async readOnly<T>(
    work: (session: RepositorySession) => Promise<T>,
    access?: AccessGuard,
    /** Checked by the session's first row read, in the same statement (readPrecondition.ts). */
    precondition?: ReadPrecondition,
  ): Promise<T> {
    const db = precondition ? new PreconditionGate(this.db, precondition, this.reads) : this.db;
    const session = new RepositorySession(db, this.registry.forProject(access?.options.projectId), access, true);
    return work(session);
  }

  /** Registers a listener for committed writes; returns the function that removes it. */
  onCommitted(listener: CommitListener): () => void {
    this.commitListeners.add(listener);
    return () => this.commitListeners.delete(listener);
  }

  /** Registers a hook run before each writing transaction commits; returns the function that removes it. */
  onBeforeCommit(hook: BeforeCommitHook): () => void {
    this.beforeCommitHooks.add(hook);
    return () => this.beforeCommitHooks.delete(hook);
  }

  private announce(writes: readonly CommittedWrite[]): void {
    for (const listener of this.commitListeners) {
      // A failing listener must not turn a committed write into an error answer.
      try {
        listener(writes);
      } catch (error) {
        console.error('commit listener failed', error);
      }
    }
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
  /** What this session has flushed, announced to commit listeners once the transaction commits. */
  readonly written: CommittedWrite[] = [];
  private readonly committedEffects: (() => void)[] = [];
  /** SearchParameters of projects this session added, by `project|base` (see countProjectParameter). */
  private readonly projectParametersAdded = new Map<string, number>();
  /** References this session's writes added, checked before commit (see checkReferences). */
  private readonly addedReferences: AddedReference[] = [];

  constructor(
    readonly tx: SqlExecutor,
    readonly registry: SearchParameterRegistry,
    readonly access?: AccessGuard,
    /** Opened by `Repository.readOnly`: outside a transaction, so nothing may be written. */
    private readonly readOnly = false,
    /** This server's address: references to its FHIR base are written in their relative form. */
    private readonly server?: ServerAddress,
  ) {}

  /** `resource` with the references to this server's own FHIR base in their relative form (serverAddress.ts). */
  private localised<T extends Resource>(resource: T): T {
    return this.server ? withLocalReferences(resource, this.server) : resource;
  }

  /**
   * A session on this same transaction that reads as `access` (its project's search parameters, its
   * policy): to find out, inside a system transaction, what a person may see. It writes nothing.
   * (A second session from the Repository would wait for this transaction's connection on the
   * embedded database, which has one.)
   */
  readingAs(access: AccessGuard): RepositorySession {
    return new RepositorySession(this.tx, this.registry.forProject(access.options.projectId), access, true);
  }

  /** What the caller may see of a resource (hidden fields removed). */
  private visible<T extends Resource>(resource: T): T {
    return this.access ? this.access.redact(resource) : resource;
  }

  /**
   * The current row as the caller may read it: 404 for rows of other projects (as if they did not
   * exist), 403 for what the policy does not grant.
   */
  private async readable(
    resourceType: string,
    id: string,
    interaction: AccessInteraction,
  ): Promise<CurrentRow | undefined> {
    this.access?.checkInteraction(resourceType, interaction);
    checkResourceId(id, `${resourceType}.id`);
    const row = await this.current(resourceType, id, false);
    if (!row || !this.access) return row;
    if (!this.access.seesProject(row.project_id, resourceType)) return undefined;
    if (
      !row.deleted &&
      !this.access.isShared(row.project_id) &&
      !(await this.access.allows(this.tx, row.content, interaction))
    ) {
      throw errors.forbidden(`Forbidden: your access policy does not allow ${interaction} of this ${resourceType}`);
    }
    return row;
  }

  /**
   * After a write is buffered: the written version must still be within what the caller may write,
   * under the entries that grant this write (a policy may let a patient update a message to her
   * without letting her create one like it).
   */
  private async checkWritten(resource: Resource, interaction: 'create' | 'update'): Promise<void> {
    if (!this.access || this.access.unrestricted) return;
    await this.flush();
    if (!(await this.access.allows(this.tx, resource, interaction))) {
      throw errors.forbidden(
        `Forbidden: the ${resource.resourceType} would be outside the compartment or criteria of your access policy${this.access.scoped ? ' or scopes' : ''}`,
      );
    }
  }

  /** Before changing a stored resource: it must belong to the caller's project and be writable. */
  private async checkWritable(row: CurrentRow, interaction: AccessInteraction): Promise<void> {
    if (!this.access) return;
    if (!this.access.seesProject(row.project_id, row.content.resourceType)) throw errors.notFound();
    if (this.access.unrestricted) return;
    if (this.access.isShared(row.project_id) && !this.access.superAdmin) {
      throw errors.forbidden(
        `Forbidden: shared definitions are read-only (${interaction} of ${row.content.resourceType})`,
      );
    }
    if (!row.deleted && !(await this.access.allows(this.tx, row.content, interaction))) {
      throw errors.forbidden(
        `Forbidden: your access policy does not allow ${interaction} of this ${row.content.resourceType}`,
      );
    }
  }

  /** Runs the effects of this session's writes once its transaction has committed. */
  applyCommitted(): void {
    for (const effect of this.committedEffects.splice(0)) effect();
  }

  /** Stores what is buffered: many creates in a row become one statement per table. */
  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    if (this.readOnly) throw new Error('A read-only repository session cannot write');
    const writes = this.pending;
    this.pending = [];
    this.writeCount += writes.length;
    await flushWrites(this.tx, writes);
    for (const write of writes) {
      this.written.push({ operation: write.operation, resource: write.resource, previous: write.previous });
    }
  }

  /** Creates `resource` with a server-assigned id (or `options.id`, for update-as-create). */
  async create(
    ctx: RequestContext,
    resource: Resource,
    options: { id?: string; trusted?: boolean; fresh?: boolean } = {},
  ): Promise<Resource> {
    const id = options.id ?? randomUUID();
    checkResourceId(id, `${resource.resourceType}.id`);
    this.access?.checkInteraction(resource.resourceType, 'create');
    // First: every check below, the compartments and the index then see `Type/id` for this server's URLs.
    resource = this.localised(resource);
    // A profile given as a differential is stored with its generated snapshot (issue 19).
    if (!options.trusted && needsSnapshot(resource)) resource = await withGeneratedSnapshot(this, resource);
    const input = this.access ? this.access.guardWrite({ ...resource, id }, undefined) : { ...resource, id };
    const stored = this.prepare(ctx, input, options.trusted ?? false);
    await this.inheritSecurityContext(stored.resource);
    // A caller-chosen id may already have index rows (update-as-create of a deleted resource);
    // `fresh` is the caller's promise that it cannot.
    this.buffer(stored.resource, 'create', stored.rows, !options.id || (options.fresh ?? false));
    await this.checkWritten(stored.resource, 'create');
    this.noteReferences(stored.resource, undefined, 'create');
    return this.visible(stored.resource);
  }

  async read(resourceType: string, id: string, interaction: AccessInteraction = 'read'): Promise<Resource> {
    const row = await this.readable(resourceType, id, interaction);
    if (!row) throw errors.notFound();
    if (row.deleted) throw errors.gone();
    return this.visible(row.content);
  }

  /**
   * A read by id for an answer: the stored JSON text as it is, when the caller sees rows of this
   * type whole (AccessGuard.seesWhole) and nothing in the text needs changing (no protected field,
   * no Binary whose URL gets signed) — which spares parsing the row and serialising it again;
   * otherwise the resource exactly as `read` answers it.
   */
  async readForAnswer(resourceType: string, id: string): Promise<Resource | StoredJson> {
    if (this.access && !this.access.seesWhole(resourceType)) return this.read(resourceType, id);
    this.access?.checkInteraction(resourceType, 'read');
    checkResourceId(id, `${resourceType}.id`);
    const row = await this.current<StoredRow>(resourceType, id, false, true);
    if (!row || (this.access && !this.access.seesProject(row.project_id, resourceType))) throw errors.notFound();
    if (row.deleted) throw errors.gone();
    if (mayHoldProtectedFields(row.content) || mayNameBinary(row.content)) {
      return this.visible(JSON.parse(row.content) as Resource);
    }
    return { json: row.content, versionId: row.version_id, lastModified: Number(row.last_modified) };
  }

  /** Reads the current row, or undefined when the resource never existed. */
  async readCurrent(
    resourceType: string,
    id: string,
    interaction: AccessInteraction = 'read',
  ): Promise<CurrentRow | undefined> {
    return this.readable(resourceType, id, interaction);
  }

  async readVersion(resourceType: string, id: string, versionId: string): Promise<Resource> {
    // Reading an old version needs the right to read the resource as it is now...
    const current = await this.readable(resourceType, id, 'vread');
    if (!current) throw errors.notFound();
    const rows = await this.tx.query<{ content: Resource; operation: HistoryOperation }>(
      'SELECT content, operation FROM resource_history WHERE version_id = $1 AND resource_type = $2 AND id = $3',
      [versionId, resourceType, id],
    );
    if (rows.length === 0) throw errors.notFound();
    // ...and, for a caller limited to some patients, that version must have been theirs too.
    if (
      this.access &&
      !this.access.unrestricted &&
      current.version_id !== versionId &&
      !this.access.allowsVersion(rows[0].content, 'vread')
    ) {
      throw errors.notFound();
    }
    if (rows[0].operation === 'delete') throw errors.gone();
    return this.visible(rows[0].content);
  }

  /** PUT semantics: replaces the resource, or creates it with the given id when it does not exist. */
  async update(
    ctx: RequestContext,
    resource: Resource,
    ifMatch?: string,
  ): Promise<{ resource: Resource; created: boolean }> {
    resource = this.localised(resource);
    // A profile given as a differential is stored with its generated snapshot (issue 19).
    if (needsSnapshot(resource)) resource = await withGeneratedSnapshot(this, resource);
    if (!resource.id) throw errors.invalid('Missing id', `${resource.resourceType}.id`);
    checkResourceId(resource.id, `${resource.resourceType}.id`);
    this.access?.checkInteraction(resource.resourceType, 'update');
    const found = await this.current(resource.resourceType, resource.id, true);
    // A row of another project is, for the caller, a row that does not exist.
    const existing =
      found && (!this.access || this.access.seesProject(found.project_id, resource.resourceType)) ? found : undefined;
    if (!existing && this.access && !this.access.superAdmin) {
      // Update-as-create with a client-chosen id is for super admins only: ids are unique across
      // projects, so creating would fail exactly for ids another project uses — an oracle. Every
      // id the caller cannot update gets this one answer.
      throw errors.notFoundWith(
        'Not found: PUT updates an existing resource of your project; create new resources with POST (the server assigns the id)',
      );
    }
    if (existing) await this.checkWritable(existing, 'update');
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
    // Compared with (read-only fields) and filled from (hidden, protected fields) in the same form
    // as the incoming version: one stored before its server URLs were made relative is no change.
    const before = this.localised(existing.content);
    const guarded = this.access ? this.access.guardWrite(resource, before) : resource;
    if (guarded.resourceType === 'ProjectMembership' && this.access && !this.access.superAdmin) {
      await checkKeepsAnAdmin(this.tx, existing.content as ProjectMembership, guarded as ProjectMembership);
    }
    // A resource stays in its project, whoever edits it (a super admin fixing a clinic's record).
    const owner = { ...ctx, projectId: existing.project_id ?? ctx.projectId };
    const stored = this.prepare(owner, keepProtectedFields(guarded, before), false);
    await this.inheritSecurityContext(stored.resource);
    this.buffer(stored.resource, 'update', stored.rows, false);
    await this.checkWritten(stored.resource, 'update');
    // Against the version as stored: a server URL it held was never checked as `Type/id`, so it is new here.
    this.noteReferences(stored.resource, existing.content, 'update');
    return { resource: this.visible(stored.resource), created: false };
  }

  async delete(ctx: RequestContext, resourceType: string, id: string): Promise<void> {
    this.access?.checkInteraction(resourceType, 'delete');
    checkResourceId(id, `${resourceType}.id`);
    const existing = await this.current(resourceType, id, true);
    if (!existing) throw errors.notFound();
    await this.checkWritable(existing, 'delete');
    if (existing.deleted) return; // Deleting twice is not an error, and adds no version.
    if (resourceType === 'ProjectMembership' && this.access && !this.access.superAdmin) {
      await checkKeepsAnAdmin(this.tx, existing.content as ProjectMembership, 'removed');
    }
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
    if (resourceType === 'SearchParameter') {
      const projectId = existing.project_id;
      if (projectId) this.committedEffects.push(() => this.registry.removeProjectParameter(projectId, id));
    }
    this.pending.push({
      resource: tombstone,
      operation: 'delete',
      rows: undefined,
      compartments: [],
      isNew: false,
      previous: existing.content,
    });
  }

  async search(asked: SearchRequest): Promise<SearchResult> {
    // A value naming this server's own base in full is searched in the form such references are stored in.
    const server = this.server;
    const request = server ? withLocalReferenceValues(asked, (reference) => server.localForm(reference)) : asked;
    this.access?.checkInteraction(request.resourceType, 'search');
    this.access?.checkSearch(request);
    await this.flush();
    const result = await executeSearch(this.tx, request, this.access?.scope ?? {});
    if (!this.access) return result;
    return {
      ...result,
      resources: result.resources.map((resource) => this.visible(resource)),
      included: result.included.map((resource) => this.visible(resource)),
    };
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
    if (query.resourceType) this.access?.checkInteraction(query.resourceType, 'history');
    const guard = this.access && !this.access.unrestricted ? this.access : undefined;
    if (guard?.scope.visible && query.resourceType) {
      // A version is listed when the caller may read the resource as it is now.
      const sql = new SqlParams();
      sql.values.push(...params);
      const visible = guard.scope.visible(query.resourceType, 'r', sql);
      where.push(
        `EXISTS (SELECT 1 FROM resources r WHERE r.resource_type = h.resource_type AND r.id = h.id AND (${visible}))`,
      );
      params.splice(0, params.length, ...sql.values);
    } else if (guard && !guard.superAdmin) {
      params.push(guard.readableProjects());
      where.push(`h.project_id = ANY($${params.length}::text[])`);
    }
    const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    params.push(query.count + 1, query.offset);
    const rows = await this.tx.query<{ content: Resource; operation: HistoryOperation; current: boolean }>(
      `SELECT content, operation,
              h.version_id = (SELECT r.version_id FROM resources r WHERE r.resource_type = h.resource_type AND r.id = h.id)
                AS current
       FROM resource_history h ${clause}
       ORDER BY last_updated DESC, version_id DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    );
    let records = rows.slice(0, query.count);
    if (guard && !query.resourceType) {
      // System history spans types, each with its own policy entries: checked record by record.
      const kept: typeof records = [];
      for (const row of records) {
        if (guard.canSeeVersion(row.content) && (await guard.allows(this.tx, row.content, 'history'))) kept.push(row);
      }
      records = kept;
    }
    // The checks above judge each resource by its current row; an earlier version of it is listed
    // only if it was within the caller's patients too (AccessGuard.allowsVersion).
    if (guard) records = records.filter((row) => row.current || guard.allowsVersion(row.content, 'history'));
    const page: HistoryPage = {
      records: records.map((row) => ({ resource: this.visible(row.content), operation: row.operation })),
      hasMore: rows.length > query.count,
    };
    if (query.id) {
      const counted = await this.tx.query<{ total: number }>(
        `SELECT count(*)::int AS total FROM resource_history h ${clause}`,
        params.slice(0, -2),
      );
      page.total = Number(counted[0].total);
    }
    return page;
  }

  /**
   * Remembers the references a caller's write adds (those already in the stored version were checked
   * when they were written, and stay writable even if their target was deleted since).
   *
   * A caller limited to some rows of the written type (a compartment or criteria on the entries
   * granting the write: a patient, a criteria-limited role, a `patient/` scope) is checked further
   * (`within`, see checkReferences), and every reference the search index follows counts — not only
   * literal `Type/id` ones (indexedReferences). Anyone else adds literal references to their
   * project's resources; a super admin, who may write into any project, none are checked (an
   * import pays no lookup).
   */
  private noteReferences(written: Resource, stored: Resource | undefined, interaction: 'create' | 'update'): void {
    if (!this.access) return;
    const limited = limitsWrittenRows(this.access, written.resourceType, interaction);
    if (this.access.superAdmin && !limited) return;
    const find = limited ? indexedReferences : literalReferences;
    const within = limited ? (written.meta?.compartment ?? []).map((c) => c.reference as string) : undefined;
    const before = new Set(
      stored ? find(stored as unknown as Record<string, unknown>).map((r) => `${r.resourceType}/${r.id}`) : [],
    );
    for (const reference of find(written as unknown as Record<string, unknown>)) {
      if (!before.has(`${reference.resourceType}/${reference.id}`)) this.addedReferences.push({ ...reference, within });
    }
  }

  /**
   * Every reference a caller's writes added must point at a current resource of its project (or a
   * shared definition). One a limited caller added (noteReferences) must point, besides, at one it
   * may read — as its searches would show it (policy compartment and criteria, SMART scopes) — or at
   * one about no patient but those the written resource is about (its patient compartments, which
   * the row checks have already held to the caller's). So a patient writes about no other patient:
   * she may address her message to her clinician and name the medication catalogue (in no patient's
   * compartment), point at her own record, but not at another patient, his Encounter or his orders;
   * and a role that writes results about a patient without reading Patients may still name that
   * patient. One query for all of a transaction's references. The answer does not say why a target
   * is not acceptable (absent, deleted, another project's, another patient's), so it reveals nothing
   * the caller may not read.
   */
  async checkReferences(): Promise<void> {
    if (!this.access || this.addedReferences.length === 0) return;
    const references = this.addedReferences.splice(0);
    await this.flush();
    const keys = [...new Set(references.map((r) => `${r.resourceType}/${r.id}`))];
    const params = new SqlParams();
    const types = params.add(keys.map((key) => key.split('/')[0]));
    const ids = params.add(keys.map((key) => key.split('/')[1]));
    const where = ['NOT r.deleted'];
    if (!this.access.superAdmin)
      where.push(`r.project_id = ANY(${params.add(this.access.readableProjects())}::text[])`);
    const limitedTypes = [...new Set(references.filter((r) => r.within).map((r) => r.resourceType))];
    let judged = '';
    if (limitedTypes.length > 0) {
      const scope = this.access.scope;
      const cases = limitedTypes.map(
        (type) => `WHEN ${params.add(type)} THEN (${scope.visible ? scope.visible(type, 'r', params) : 'TRUE'})`,
      );
      judged = `, CASE r.resource_type ${cases.join(' ')} ELSE FALSE END AS readable, r.compartments`;
    }
    const rows = await this.tx.query<{
      resource_type: string;
      id: string;
      readable?: boolean;
      compartments?: string[];
    }>(
      `SELECT r.resource_type, r.id${judged} FROM resources r
         JOIN unnest(${types}::text[], ${ids}::text[]) AS t(resource_type, id) ON r.resource_type = t.resource_type AND r.id = t.id
        WHERE ${where.join(' AND ')}`,
      params.values,
    );
    const found = new Map(rows.map((row) => [`${row.resource_type}/${row.id}`, row]));
    const missing = references.filter((r) => {
      const target = found.get(`${r.resourceType}/${r.id}`);
      if (!target) return true;
      if (!r.within || target.readable === true) return false;
      const within = r.within;
      return !(target.compartments ?? []).every((patient) => within.includes(patient));
    });
    if (missing.length > 0) {
      throw errors.validation(
        missing.map((r) => ({
          severity: 'error' as const,
          code: 'invalid' as const,
          details: {
            text: r.within
              ? 'Invalid reference: it must point at a current resource of your project that you may read, or that is about no other patient'
              : 'Invalid reference: it must point at a current resource of your project',
          },
          expression: [r.path],
        })),
      );
    }
  }

  /**
   * A Binary is in no patient compartment of its own; it joins the compartments of its
   * securityContext (a Patient, or the Media/DocumentReference/Communication it belongs to), so a
   * patient can open the files of their own record and chat — and only those. A context of another
   * project lends nothing.
   */
  private async inheritSecurityContext(resource: Resource): Promise<void> {
    if (resource.resourceType !== 'Binary') return;
    const [type, id] = ((resource as Binary).securityContext?.reference ?? '').split('/');
    if (!type || !id || !/^[A-Za-z0-9\-.]{1,64}$/.test(id)) return;
    let compartments: string[] = [];
    if (type === 'Patient') {
      compartments = [`Patient/${id}`];
    } else {
      const row = await this.current(type, id, false);
      if (row && !row.deleted && row.project_id === resource.meta?.project) {
        compartments = (row.content.meta?.compartment ?? []).map((c) => c.reference ?? '').filter(Boolean);
      }
    }
    if (compartments.length > 0) {
      resource.meta = { ...resource.meta, compartment: compartments.map((reference) => ({ reference })) };
    }
  }

  /** The current row; with `asText`, its content as the stored JSON text and its meta.lastUpdated. */
  private async current<T extends CurrentRow | StoredRow = CurrentRow>(
    resourceType: string,
    id: string,
    forUpdate: boolean,
    asText = false,
  ): Promise<T | undefined> {
    await this.flush();
    const columns = asText ? storedRowColumns : currentRowColumns;
    if (this.tx instanceof PreconditionGate && !this.tx.held) {
      return this.tx.readRow<T>(resourceType, id, columns, asText ? 'text' : 'json');
    }
    const rows = await this.tx.query<T>(
      `SELECT ${columns('')} FROM resources WHERE resource_type = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
      [resourceType, id],
      { prepareAs: `read_current${asText ? '_text' : ''}${forUpdate ? '_for_update' : ''}` },
    );
    return rows[0];
  }

  private prepare(ctx: RequestContext, input: Resource, trusted: boolean): { resource: Resource; rows: IndexRows } {
    if (!trusted) {
      const issues = validateResource(input);
      if (issues.length > 0) throw errors.validation(issues);
    }
    const project = owningProject(ctx, input);
    if (!trusted && input.resourceType === 'SearchParameter') {
      const parameter = input as SearchParameter;
      // Cost first: a refused expression is not handed to the FHIRPath parser of the validation.
      const cost = searchParameterCostIssues(parameter);
      const issues =
        cost.length > 0 ? cost : [...validateSearchParameter(parameter), ...shadowingIssues(this.registry, parameter)];
      if (issues.length > 0) throw errors.validation(issues);
      this.countProjectParameter(project, parameter);
    }
    // Without the incoming compartment, by destructuring: `delete` would turn every stored meta into a
    // slow dictionary-mode object, which the index extraction and the flush's JSON.stringify then walk.
    const { compartment: _incomingCompartment, ...incomingMeta } = input.meta ?? {};
    const meta: Meta = {
      ...incomingMeta,
      versionId: randomUUID(),
      lastUpdated: new Date().toISOString(),
      author: ctx.author,
      project,
    };
    const resource = { ...input, meta } as Resource;
    if (!trusted && resource.resourceType === 'SearchParameter') {
      // Takes effect for its project only, once committed (other processes reload it: searchParameterSync.ts).
      this.committedEffects.push(() => this.registry.putProjectParameter(project, resource as SearchParameter));
    }
    // Indexed with the parameters of the project the resource belongs to, whoever writes it.
    const parameters = this.registry.forProject(project);
    const rows = extractIndexRows(
      resource as unknown as Record<string, unknown>,
      parameters.forType(resource.resourceType),
      (url) => parameters.typeOfUrl(url),
      // 413 past RESOURCE_MAX_INDEX_VALUES / _TEXT, before any row reaches the database.
      trusted ? undefined : indexLimitCheck(resource.resourceType),
    );
    const compartments = patientCompartments(resource.resourceType, resource.id as string, rows.reference);
    if (compartments.length > 0) meta.compartment = compartments.map((reference) => ({ reference }));
    return { resource, rows };
  }

  /**
   * 422 when a new SearchParameter would give one of its base types more of the project's own
   * parameters than allowed (each is evaluated on every write of the type). Those saved earlier in
   * this transaction count too: the registry learns of them only when it commits.
   */
  private countProjectParameter(project: string, parameter: SearchParameter): void {
    const registry = this.registry.baseRegistry();
    if (!parameter.code || (parameter.id && registry.hasProjectParameter(project, parameter.id))) return;
    const limit = searchExpressionLimits.maxProjectParametersPerType;
    for (const base of (parameter.base ?? []) as string[]) {
      if (registry.baseDefines(base, parameter.code)) continue;
      const key = `${project}|${base}`;
      const count = registry.projectParameterCount(project, base) + (this.projectParametersAdded.get(key) ?? 0);
      if (count >= limit) {
        throw new FhirError(
          422,
          outcomeOf([
            {
              severity: 'error',
              code: 'too-costly',
              details: {
                text: `The project already has ${count} search parameters of its own for ${base}; at most ${limit} are allowed (each is evaluated on every write of ${base})`,
              },
              expression: ['SearchParameter.base'],
            },
          ]),
        );
      }
      this.projectParametersAdded.set(key, (this.projectParametersAdded.get(key) ?? 0) + 1);
    }
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
