import type { Login, Project } from '@medplum/fhirtypes';
import { FhirError, errors, outcomeOf } from '../fhir/fhirError';
import type { SqlExecutor } from '../storage/database';

/** The Project feature (Medplum's `Project.features` code) that lets a project's admins send e-mail. */
export const emailFeature = 'email';

/** The window of the per-project send limit. */
export const emailQuotaWindowSeconds = 60 * 60;

/**
 * Who may use `POST /email/v1/send`: super admins, and admins of a project whose Project lists the
 * `email` feature (which only a super admin can turn on). Throws 403 otherwise.
 *
 * Never a ClientApplication acting for a person (a SMART app the admin signed into, a token
 * exchange): the person consented to the app's FHIR scopes, none of which is "send e-mail as the
 * clinic", and the app is a third party. A client signed in as itself (client credentials) is the
 * project's own service, under its own membership, and may.
 */
export function checkEmailPermission(caller: {
  superAdmin: boolean;
  projectAdmin: boolean;
  project: Project;
  login: Login;
}): void {
  if (isAppActingForPerson(caller.login)) {
    throw errors.forbidden(
      "Forbidden: a token issued to an application for a person may not send e-mail; sign in to Hearth EMR, or use the application's own client credentials",
    );
  }
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

/** A login issued to a ClientApplication on behalf of someone other than the client itself. */
export function isAppActingForPerson(login: Login): boolean {
  const client = login.client?.reference;
  return client !== undefined && login.user?.reference !== client;
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
 * Counts a message's `recipients` (each address it goes to is one e-mail: a message to 150
 * addresses is not one e-mail) against the project's hourly limit, in the database so that every
 * server process shares the count (auth_throttle rows are generic key/count/window counters;
 * e-mail keys are `email-send:Project/{id}`). A refused message takes nothing from the limit.
 * Answers undefined within the limit, else the seconds until the window ends.
 */
export async function takeEmailQuota(
  db: SqlExecutor,
  projectId: string,
  limit: number,
  recipients = 1,
): Promise<number | undefined> {
  const key = `email-send:Project/${projectId}`;
  if (recipients > limit) throw tooManyRecipients(limit, recipients);
  // One statement, so that concurrent senders on several processes cannot both pass the limit: the
  // row is taken (or restarted, once its window is over) only while the sum stays within it.
  const taken = await db.query<{ failures: number }>(
    `INSERT INTO auth_throttle (key, failures, first_failure) VALUES ($1, $3, now())
     ON CONFLICT (key) DO UPDATE SET
       failures = CASE WHEN auth_throttle.first_failure < now() - make_interval(secs => $2) THEN EXCLUDED.failures ELSE auth_throttle.failures + EXCLUDED.failures END,
       first_failure = CASE WHEN auth_throttle.first_failure < now() - make_interval(secs => $2) THEN now() ELSE auth_throttle.first_failure END
     WHERE auth_throttle.first_failure < now() - make_interval(secs => $2) OR auth_throttle.failures + EXCLUDED.failures <= $4
     RETURNING failures`,
    [key, emailQuotaWindowSeconds, recipients, limit],
  );
  if (taken.length > 0) return undefined;
  const rows = await db.query<{ seconds_left: number }>(
    `SELECT CEIL(EXTRACT(EPOCH FROM (first_failure + make_interval(secs => $2) - now())))::integer AS seconds_left
     FROM auth_throttle WHERE key = $1`,
    [key, emailQuotaWindowSeconds],
  );
  return Math.max(1, Number(rows[0]?.seconds_left ?? 1));
}

/** A message to more addresses than the hourly limit could never be sent: 400, not a 429 to retry. */
function tooManyRecipients(limit: number, recipients: number): FhirError {
  return errors.invalid(
    `This message goes to ${recipients} addresses (to, cc and bcc); this project may send at most ${limit} e-mails an hour`,
    'to',
  );
}
