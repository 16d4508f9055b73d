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
 * The context of a login about to receive tokens, and the Login as it should be saved with it:
 * - EHR launch (`launch` scope and a `launch` parameter): the SmartAppLaunch must be one of the
 *   login's own project (a launch id of another project, or a made-up one, is `invalid_grant`:
 *   an app cannot borrow another clinic's patient context);
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
    const launch = await readReference<SmartAppLaunch>(session, login.launch);
    const asked = scopes.has('launch') || scopes.has('launch/patient');
    if (!launch || !projectId || launch.meta?.project !== projectId || !asked)
      throw oauthError('invalid_grant', 'Unknown launch context');
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
