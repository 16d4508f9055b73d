import type { Login, Reference, SmartAppLaunch } from '@medplum/fhirtypes';
import { errors } from '../fhir/fhirError';
import type { RepositorySession } from '../fhir/repository';
import { readReference } from './accountStore';
import { oauthError } from './loginService';

/** SMART launch context in a token response (and the access token's claims). */
export interface LaunchContext {
  patient?: string;
  encounter?: string;
}

const launchIdPattern = /^[A-Za-z0-9\-.]{1,64}$/;

/** The `launch` parameter of an EHR launch: the id of a SmartAppLaunch the EHR saved; checked when tokens are granted. */
export function launchReference(launch: string | undefined): Reference<SmartAppLaunch> | undefined {
  if (launch === undefined || launch === '') return undefined;
  if (!launchIdPattern.test(launch)) throw errors.invalid('Invalid launch parameter', 'launch');
  return { reference: `SmartAppLaunch/${launch}` };
}

const scopesOf = (login: Login) => new Set((login.scope ?? '').split(/\s+/));

/**
 * Does this login, bound to a membership, still need a patient chosen for its app? A SMART
 * standalone launch (`launch/patient`, no EHR launch) by anyone but a patient, who is their own
 * (launchPatientChoice.ts).
 */
export function needsPatientChoice(login: Login): boolean {
  return (
    scopesOf(login).has('launch/patient') && !login.launch && !!login.membership && login.profileType !== 'Patient'
  );
}

/**
 * How long after it was written an EHR launch may still be taken up by an app's first token: the
 * chart saves it just before it opens the app, and the sign-in that follows (the code must be
 * redeemed within 10 minutes of its start) fits well within this.
 */
export const launchLifetimeMs = 15 * 60_000;

/** Why a sign-in may not take up an EHR launch, by name: the token endpoint and the `/oauth` page each say it in their words. */
export type LaunchRefusal = 'startedBySomeoneElse' | 'expired' | 'used';

/** The token endpoint's words for each refusal (`invalid_request`). */
export const launchRefusalMessages: Record<LaunchRefusal, string> = {
  startedBySomeoneElse: 'This launch was started by someone else: launch the application from your own session',
  expired: 'This launch has expired: launch the application again',
  used: 'This launch was already used: launch the application again',
};

/**
 * Why a sign-in of `profile` may not take up `launch`'s context, or undefined when it may. A launch
 * is its author's: only a sign-in of the profile that wrote it (`meta.author`, the membership
 * profile a clinician's REST create records) gets its patient and encounter. Without this an app
 * handed the launch id of one clinician's launch (or keeping it) could sign in as anyone else in
 * the project and receive that patient context. The first token (`firstGrant`) must come within
 * `launchLifetimeMs` of when it was written; refreshes of that login only check the author again
 * (a launch another person rewrote has another author). The author is checked first, so someone
 * else never learns more of the launch than that it is not theirs.
 */
export function launchUseRefusal(
  launch: SmartAppLaunch,
  profile: Reference,
  firstGrant: boolean,
  now: number,
): Exclude<LaunchRefusal, 'used'> | undefined {
  const author = launch.meta?.author?.reference;
  if (!author || author !== profile.reference) return 'startedBySomeoneElse';
  if (firstGrant) {
    const written = Date.parse(launch.meta?.lastUpdated ?? '');
    if (!Number.isFinite(written) || now - written > launchLifetimeMs) return 'expired';
  }
  return undefined;
}

/** `launchUseRefusal` in the token endpoint's words. */
export function launchUseProblem(
  launch: SmartAppLaunch,
  profile: Reference,
  firstGrant: boolean,
  now: number,
): string | undefined {
  const refusal = launchUseRefusal(launch, profile, firstGrant, now);
  return refusal ? launchRefusalMessages[refusal] : undefined;
}

/**
 * Whether another sign-in already took up the launch. The caller holds the launch's row (read with
 * `FOR UPDATE`), so two first grants naming one launch queue there and the second sees the first's
 * granted Login. Only Logins written since the launch was can have taken it up (the index on
 * last_updated keeps the look-up short).
 */
export async function takenByAnotherLogin(
  session: RepositorySession,
  launch: SmartAppLaunch,
  /** The sign-in asking, itself not counted; none when the question comes before any sign-in (the `/oauth` page). */
  login?: Login,
): Promise<boolean> {
  const rows = await session.tx.query<{ id: string }>(
    `SELECT id FROM resources
      WHERE resource_type = 'Login' AND NOT deleted AND last_updated >= $1 AND id <> $2
        AND content->'launch'->>'reference' = $3 AND coalesce((content->>'granted')::boolean, false)
      LIMIT 1`,
    [launch.meta?.lastUpdated, login?.id ?? '', `SmartAppLaunch/${launch.id}`],
  );
  return rows.length > 0;
}

/**
 * The context of a login about to receive tokens, and the Login as it should be saved with it:
 * - EHR launch (`launch` scope and a `launch` parameter): the SmartAppLaunch must be one of the
 *   login's own project (a launch id of another project, or a made-up one, is `invalid_grant`:
 *   an app cannot borrow another clinic's patient context), written by the login's own profile,
 *   recently, and taken up by no other sign-in (`invalid_request` otherwise: `launchUseProblem`);
 * - standalone `launch/patient` by a clinician: the patient chosen in the consent step, saved as a
 *   SmartAppLaunch of the project then (launchPatientChoice.ts) and read here like an EHR launch;
 * - standalone `launch/patient` by a patient: their own record, recorded as a new SmartAppLaunch so
 *   the Login names its launch patient the same way in both cases.
 */
export async function launchContextFor(
  session: RepositorySession,
  login: Login,
  profile: Reference,
): Promise<{ login: Login; context: LaunchContext }> {
  const projectId = login.project?.reference?.split('/')[1];
  const scopes = scopesOf(login);
  if (login.launch) {
    const firstGrant = login.granted !== true;
    const launchId = login.launch.reference?.split('/')[1] ?? '';
    // The first grant holds the launch's row until it commits: see takenByAnotherLogin.
    if (firstGrant)
      await session.tx.query(`SELECT id FROM resources WHERE resource_type = 'SmartAppLaunch' AND id = $1 FOR UPDATE`, [
        launchId,
      ]);
    const launch = await readReference<SmartAppLaunch>(session, login.launch);
    const asked = scopes.has('launch') || scopes.has('launch/patient');
    if (!launch || !projectId || launch.meta?.project !== projectId || !asked)
      throw oauthError('invalid_grant', 'Unknown launch context');
    const problem = launchUseProblem(launch, profile, firstGrant, Date.now());
    if (problem) throw oauthError('invalid_request', problem);
    if (firstGrant && (await takenByAnotherLogin(session, launch, login)))
      throw oauthError('invalid_request', launchRefusalMessages.used);
    return { login, context: contextOf(launch) };
  }
  if (scopes.has('launch/patient') && profile.reference?.startsWith('Patient/') && projectId) {
    const launch = (await session.create(
      { projectId, author: profile },
      { resourceType: 'SmartAppLaunch', patient: { reference: profile.reference } } as SmartAppLaunch,
      { trusted: true },
    )) as SmartAppLaunch;
    return { login: { ...login, launch: { reference: `SmartAppLaunch/${launch.id}` } }, context: contextOf(launch) };
  }
  return { login, context: {} };
}

function contextOf(launch: SmartAppLaunch): LaunchContext {
  const idOf = (reference: Reference | undefined, type: string) =>
    reference?.reference?.startsWith(`${type}/`) ? reference.reference.slice(type.length + 1) : undefined;
  const patient = idOf(launch.patient, 'Patient');
  const encounter = idOf(launch.encounter, 'Encounter');
  return { ...(patient ? { patient } : {}), ...(encounter ? { encounter } : {}) };
}
