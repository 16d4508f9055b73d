import type { Project } from '@medplum/fhirtypes';
import { FhirError, errors, outcomeOf } from '../fhir/fhirError';
import type { SqlExecutor } from '../storage/database';

/** The Project feature (Medplum's `Project.features` code) that lets a project's admins send e-mail. */
export const emailFeature = 'email';

/** The window of the per-project send limit. */
export const emailQuotaWindowSeconds = 60 * 60;

/**
 * Who may use `POST /email/v1/send`: super admins, and admins of a project whose Project lists the
 * `email` feature (which only a super admin can turn on). Throws 403 otherwise.
 */
export function checkEmailPermission(caller: { superAdmin: boolean; projectAdmin: boolean; project: Project }): void {
  if (caller.superAdmin) return;
  if (!caller.projectAdmin) {
    throw errors.forbidden('Forbidden: only project admins and super admins may send e-mail');
  }
  const features = (caller.project as Project & { features?: string[] }).features ?? [];
  if (!features.includes(emailFeature)) {
    throw errors.forbidden(
      `Forbidden: this project may not send e-mail; a super admin can turn on the "${emailFeature}" feature of the Project`,
    );
  }
}

/** A refusal for a project over its limit: 429, with how long to wait. */
export function quotaExceeded(limit: number, retryAfterSeconds: number): FhirError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return new FhirError(
    429,
    outcomeOf([
      {
        severity: 'error',
        code: 'throttled',
        details: {
          text: `This project has sent its ${limit} e-mails for this hour. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        },
      },
    ]),
  );
}

/**
 * Counts one message against the project's hourly limit, in the database so that every server
 * process shares the count (auth_throttle rows are generic key/count/window counters; e-mail keys
 * are `email-send:Project/{id}`). Answers undefined within the limit, else the seconds until the
 * window ends.
 */
export async function takeEmailQuota(db: SqlExecutor, projectId: string, limit: number): Promise<number | undefined> {
  const rows = await db.query<{ failures: number; seconds_left: number }>(
    `INSERT INTO auth_throttle (key, failures, first_failure) VALUES ($1, 1, now())
     ON CONFLICT (key) DO UPDATE SET
       failures = CASE WHEN auth_throttle.first_failure < now() - make_interval(secs => $2) THEN 1 ELSE auth_throttle.failures + 1 END,
       first_failure = CASE WHEN auth_throttle.first_failure < now() - make_interval(secs => $2) THEN now() ELSE auth_throttle.first_failure END
     RETURNING failures, CEIL(EXTRACT(EPOCH FROM (first_failure + make_interval(secs => $2) - now())))::integer AS seconds_left`,
    [`email-send:Project/${projectId}`, emailQuotaWindowSeconds],
  );
  const { failures, seconds_left: secondsLeft } = rows[0];
  if (Number(failures) <= limit) return undefined;
  return Math.max(1, Number(secondsLeft));
}
