import type { FastifyInstance } from 'fastify';
import type { Login, Patient, ProjectMembership, Reference, SmartAppLaunch } from '@medplum/fhirtypes';
import { getDisplayString } from '../../data-provider/formatting';
// Straight from the rule's file: the data-provider search index is the browser's surface.
import { patientLookupQuery } from '../../data-provider/search/patientLookupQuery';
import { errors, FhirError } from '../fhir/fhirError';
import type { RepositorySession } from '../fhir/repository';
import { parseSearchRequest } from '../search/searchRequest';
import { readProject, readReference } from './accountStore';
import type { AuthEnvironment } from './authEnvironment';
import type { AccessGuard } from './accessGuard';
import { accessForLogin } from './loginAccess';
import { needsPatientChoice } from './launchContext';
import { pendingLogin } from './loginService';
import { membershipUsable } from './membershipState';

/**
 * SMART standalone launch by a clinician: an app that asks for `launch/patient` without an EHR
 * launch needs a patient, and a clinician (unlike a patient, who is their own) must choose one.
 * The consent step then offers a patient search; the choice becomes a SmartAppLaunch of the
 * login's project, as an EHR launch from the chart does, and the token names that patient.
 *
 * Searching and choosing run as the person's membership — their access policy, not the app's
 * scopes (which need the patient to mean anything) — so the list holds only patients they could
 * open in the chart, and a patient of another project, or one their policy hides, cannot be chosen.
 */

const patientsListed = 10;

/** The access of the login's membership, without the app's scopes. */
async function membershipAccess(
  session: RepositorySession,
  env: AuthEnvironment,
  login: Login,
): Promise<{ access: AccessGuard; membership: ProjectMembership }> {
  const membership = await readReference<ProjectMembership>(session, login.membership);
  const project = membership ? await readProject(session, membership.project) : undefined;
  if (!membershipUsable(membership) || !project) throw errors.forbidden('This membership is not active');
  const { access } = await accessForLogin(session, env, { ...login, scope: 'openid' }, membership, project);
  return { access, membership };
}

export interface PatientChoice {
  id: string;
  name: string;
  birthDate?: string;
  gender?: string;
}

/**
 * Records the chosen patient for the login's app: read as the membership (404 / 403 when it may
 * not see them), then saved as a SmartAppLaunch in the login's project.
 */
export async function chooseLaunchPatient(
  session: RepositorySession,
  env: AuthEnvironment,
  login: Login,
  patientId: string,
): Promise<Login> {
  const { access, membership } = await membershipAccess(session, env, login);
  const projectId = login.project?.reference?.split('/')[1] as string;
  let patient: Patient | undefined;
  try {
    patient = (await session.readingAs(access).read('Patient', patientId)) as Patient;
  } catch (error) {
    // Not found, another project's, hidden by the policy, a malformed id: all "not found" below.
    if (!(error instanceof FhirError)) throw error;
    patient = undefined;
  }
  // One answer for "does not exist", "another project's" and "hidden by the policy".
  if (!patient || patient.meta?.project !== projectId) throw errors.invalid('Patient not found', 'patient');
  const launch = (await session.create(
    { projectId, author: membership.profile as Reference },
    { resourceType: 'SmartAppLaunch', patient: { reference: `Patient/${patient.id}` } } as SmartAppLaunch,
    { trusted: true },
  )) as SmartAppLaunch;
  return { ...login, launch: { reference: `SmartAppLaunch/${launch.id}` } };
}

/**
 * `GET /auth/login/{login}/patients?text=…`: the patients the person may choose for the app, found
 * by name, birth date or record number (patientLookupQuery, the rule the browser states).
 */
export async function launchPatientRoutes(app: FastifyInstance, env: AuthEnvironment): Promise<void> {
  app.get<{ Params: { login: string }; Querystring: { text?: string } }>(
    '/auth/login/:login/patients',
    async (request) => {
      const text = typeof request.query.text === 'string' ? request.query.text.trim() : '';
      if (text.length > 200) throw errors.invalid('Search text too long', 'text');
      return env.repository.transaction(async (session) => {
        const login = await pendingLogin(session, request.params.login);
        if (!needsPatientChoice(login)) throw errors.invalid('This sign-in does not ask for a patient', 'login');
        const { access } = await membershipAccess(session, env, login);
        const query: Record<string, string> = {
          _count: String(patientsListed),
          _sort: 'family',
          ...patientLookupQuery(text),
        };
        const reader = session.readingAs(access);
        const result = await reader.search(parseSearchRequest('Patient', query, reader.registry));
        const patients: PatientChoice[] = (result.resources as Patient[]).map((patient) => ({
          id: patient.id as string,
          // The name the chart shows for them (the shared display rule).
          name: getDisplayString(patient),
          ...(patient.birthDate ? { birthDate: patient.birthDate } : {}),
          ...(patient.gender ? { gender: patient.gender } : {}),
        }));
        return { patients };
      });
    },
  );
}
