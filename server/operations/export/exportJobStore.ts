import { randomUUID } from 'node:crypto';
import type { SqlExecutor } from '../../storage/database';

export type ExportStatus = 'active' | 'completed' | 'error' | 'cancelled';

export interface ExportOutput {
  type: string;
  url: string;
  count: number;
}

/** One bulk export job as kept in `bulk_export_jobs` (shared by every server process on the database). */
export interface ExportJob {
  id: string;
  projectId: string;
  loginId: string;
  status: ExportStatus;
  requestUrl: string;
  transactionTime: string;
  progress?: string;
  output: ExportOutput[];
  error?: string;
  /** Active, but no progress for `staleAfterSeconds`: the process running it has stopped. */
  stale: boolean;
}

/** An active job that has not recorded progress for this long has lost its process. */
export const staleAfterSeconds = 300;

/** How many active jobs one login, and one project, may have at a time. */
export interface ExportJobLimits {
  perLogin: number;
  perProject: number;
}

export const defaultExportJobLimits: ExportJobLimits = { perLogin: 1, perProject: 3 };

/**
 * How long a job and its files are kept after its last change (finished, failed, cancelled, or an
 * active job whose process stopped): Bulk Data lets a server remove output files after a time, and
 * without it every export (a copy of what its caller may read) stayed on disk for good.
 */
export const exportRetentionSeconds = 24 * 60 * 60;

interface ExportJobRow {
  id: string;
  project_id: string;
  login_id: string;
  status: ExportStatus;
  request_url: string;
  transaction_time: string | Date;
  progress: string | null;
  output: ExportOutput[] | string;
  error: string | null;
  stale: boolean;
}

function fromRow(row: ExportJobRow): ExportJob {
  return {
    id: row.id,
    projectId: row.project_id,
    loginId: row.login_id,
    status: row.status,
    requestUrl: row.request_url,
    transactionTime: new Date(row.transaction_time).toISOString(),
    ...(row.progress ? { progress: row.progress } : {}),
    output: typeof row.output === 'string' ? (JSON.parse(row.output) as ExportOutput[]) : row.output,
    ...(row.error ? { error: row.error } : {}),
    stale: row.stale === true,
  };
}

/** Reads and writes export jobs; every method is one statement. */
export class ExportJobStore {
  constructor(private readonly db: SqlExecutor) {}

  /**
   * Creates an active job, unless the caller's login already runs one or its project already runs
   * `limits.perProject`: undefined then. Each job reads everything its caller may read and writes a
   * copy of it to disk, so without a limit one caller could start any number of them at once (a
   * patient included). Stale jobs (their process stopped) do not count. On PostgreSQL two kick-offs
   * at the same instant may both pass (neither count sees the other's uncommitted row): the limit
   * bounds how many run at once, it need not be exact.
   */
  async create(
    job: Pick<ExportJob, 'projectId' | 'loginId' | 'requestUrl'>,
    limits: ExportJobLimits = defaultExportJobLimits,
  ): Promise<ExportJob | undefined> {
    const rows = await this.db.query<ExportJobRow>(
      `INSERT INTO bulk_export_jobs (id, project_id, login_id, status, request_url, transaction_time, progress)
       SELECT $1, $2, $3, 'active', $4, now(), 'Queued'
       WHERE (SELECT count(*) FROM bulk_export_jobs
              WHERE login_id = $3 AND status = 'active' AND updated >= now() - make_interval(secs => $5)) < $6
         AND (SELECT count(*) FROM bulk_export_jobs
              WHERE project_id = $2 AND status = 'active' AND updated >= now() - make_interval(secs => $5)) < $7
       RETURNING *, false AS stale`,
      [randomUUID(), job.projectId, job.loginId, job.requestUrl, staleAfterSeconds, limits.perLogin, limits.perProject],
    );
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  async get(id: string): Promise<ExportJob | undefined> {
    const rows = await this.db.query<ExportJobRow>(
      `SELECT *, status = 'active' AND updated < now() - make_interval(secs => $2) AS stale
       FROM bulk_export_jobs WHERE id = $1`,
      [id, staleAfterSeconds],
    );
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  /** Records progress while the job is still active; false when it no longer is (cancelled). */
  async progress(id: string, progress: string): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE bulk_export_jobs SET progress = $2, updated = now() WHERE id = $1 AND status = 'active' RETURNING id`,
      [id, progress],
    );
    return rows.length > 0;
  }

  async complete(id: string, output: ExportOutput[]): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE bulk_export_jobs SET status = 'completed', progress = 'Completed', output = $2::jsonb, updated = now()
       WHERE id = $1 AND status = 'active' RETURNING id`,
      [id, JSON.stringify(output)],
    );
    return rows.length > 0;
  }

  async fail(id: string, error: string): Promise<void> {
    await this.db.query(
      `UPDATE bulk_export_jobs SET status = 'error', error = $2, updated = now() WHERE id = $1 AND status = 'active'`,
      [id, error],
    );
  }

  /**
   * Forgets up to `limit` jobs that have not changed for `retentionSeconds` and answers their ids
   * (their files are the caller's to remove). A running job records progress, so it is never one of
   * them. Each row is deleted by one statement: when several processes sweep at once, each id is
   * answered to one of them.
   */
  async removeExpired(retentionSeconds: number, limit = 100): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `DELETE FROM bulk_export_jobs
       WHERE id IN (SELECT id FROM bulk_export_jobs WHERE updated < now() - make_interval(secs => $1) LIMIT $2)
       RETURNING id`,
      [retentionSeconds, limit],
    );
    return rows.map((row) => row.id);
  }

  /** Cancels an active job (a finished one is marked cancelled too: its status URL is gone). */
  async cancel(id: string): Promise<void> {
    await this.db.query(
      `UPDATE bulk_export_jobs SET status = 'cancelled', updated = now() WHERE id = $1 AND status <> 'cancelled'`,
      [id],
    );
  }
}
