import type { AccessPolicy, Project } from '@medplum/fhirtypes';

/**
 * What a membership without an access policy may do, in words for the list and the dialogs. The
 * server (server/auth/membershipPolicy.ts, `effectivePolicy`) gives such a member the whole
 * project, except a patient: they get the project's default patient policy
 * (`Project.defaultPatientAccessPolicy`), or without one their own record, read-only, and their
 * own messages (`defaultPatientPolicy`).
 */
export interface NoPolicyAccess {
  /** The list's cell and the "no policy" choice of the select. */
  label: string;
  /** The hint under the select while no policy is chosen. */
  hint: string;
}

export const fullAccess: NoPolicyAccess = { label: 'None (full access)', hint: 'None: the whole project' };

/** The label of a patient without a policy before the project's default is known. */
export const ownRecordLabel = 'Default patient access (own record)';

export function isPatientProfile(profile: string | undefined): boolean {
  return /^Patient\//.test(profile?.trim() ?? '');
}

/**
 * `profile`: the membership's profile reference (`Patient/…`, `Practitioner/…`) or type
 * (`Patient`); `project`: the Project as its admin reads it (undefined while loading);
 * `policies`: the project's access policies, to name its default patient policy.
 */
export function noPolicyAccess(
  profile: string | undefined,
  project: Project | undefined,
  policies: readonly AccessPolicy[] | undefined,
): NoPolicyAccess {
  if (!isPatientProfile(profile) && profile !== 'Patient') return fullAccess;
  const reference = project?.defaultPatientAccessPolicy?.reference;
  if (reference) {
    const name =
      policies?.find((policy) => `AccessPolicy/${policy.id}` === reference)?.name ??
      project?.defaultPatientAccessPolicy?.display ??
      'unnamed policy';
    return {
      label: `${name} (project default for patients)`,
      hint: `None: as a patient, the project's default patient policy "${name}" applies`,
    };
  }
  if (!project) {
    return {
      label: 'Default patient access',
      hint: "None: as a patient, the project's default patient access applies",
    };
  }
  return {
    label: ownRecordLabel,
    hint: 'None: as a patient, only their own record (read-only) and their own messages',
  };
}

/** The hint under the select once a policy is chosen. */
export function chosenPolicyHint(name: string | undefined): string {
  return name ? `Only what "${name}" allows` : 'Only what this policy allows';
}
