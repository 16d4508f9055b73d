import type { AccessPolicy, AccessPolicyResource, Project, ProjectMembership, Reference } from '@medplum/fhirtypes';
import type { RepositorySession } from '../fhir/repository';
import { fieldsFixedByReadMark, readMarkStatuses } from '../../data-provider/access';
import { readPolicy } from './accountStore';

/** `%profile` and the membership's access parameters (`%patient`, …) in criteria and compartments. */
function substitute(text: string, variables: Map<string, string>): string {
  return text.replace(/%([A-Za-z][A-Za-z0-9_-]*)(\.id)?/g, (whole, name: string, idSuffix?: string) => {
    const value = variables.get(name);
    if (value === undefined) return whole;
    return idSuffix ? (value.split('/').pop() ?? value) : value;
  });
}

function instantiate(policy: AccessPolicy, variables: Map<string, string>): AccessPolicyResource[] {
  return (policy.resource ?? []).map((entry) => ({
    ...entry,
    ...(entry.criteria ? { criteria: substitute(entry.criteria, variables) } : {}),
    ...(entry.compartment?.reference
      ? { compartment: { ...entry.compartment, reference: substitute(entry.compartment.reference, variables) } }
      : {}),
  }));
}

/**
 * What a patient signed in on their own may do when the project names no policy: read their
 * compartment, send messages from themselves about themselves and mark the ones to them read (the
 * read mark changes nothing else of the message: readMarkFields.ts). Not
 * write their record: a patient who could would make up results, change orders and delete what the
 * clinic recorded (the demo's portal policy had that hole, server/seed/patientPortalPolicy.ts).
 */
export function defaultPatientPolicy(profile: Reference): AccessPolicy {
  const compartment = { reference: profile.reference };
  const me = profile.reference as string;
  return {
    resourceType: 'AccessPolicy',
    name: 'Patient (own records)',
    resource: [
      { resourceType: '*', compartment, readonly: true },
      { resourceType: 'Communication', compartment, readonly: true },
      {
        resourceType: 'Communication',
        compartment,
        criteria: `Communication?sender=${me}&subject=${me}&status=in-progress`,
        interaction: ['create'],
      },
      {
        resourceType: 'Communication',
        compartment,
        criteria: `Communication?recipient=${me}&subject=${me}&status=${readMarkStatuses}`,
        interaction: ['update'],
        readonlyFields: [...fieldsFixedByReadMark],
      },
    ],
  };
}

/**
 * The access policy in force for a membership: its `accessPolicy`, or the union of its `access`
 * entries with their parameters filled in; a patient without either gets the project's default
 * patient policy, else their own compartment. Undefined means the whole project.
 */
export async function effectivePolicy(
  session: RepositorySession,
  membership: ProjectMembership,
  project: Project,
): Promise<AccessPolicy | undefined> {
  const profile = membership.profile as Reference;
  const base = new Map<string, string>([['profile', profile.reference as string]]);
  const parts: AccessPolicyResource[] = [];
  let found = false;
  if (membership.accessPolicy) {
    const policy = await readPolicy(session, membership.accessPolicy);
    if (policy) {
      found = true;
      parts.push(...instantiate(policy, base));
    }
  }
  for (const access of membership.access ?? []) {
    const policy = await readPolicy(session, access.policy);
    if (!policy) continue;
    found = true;
    const variables = new Map(base);
    for (const parameter of access.parameter ?? []) {
      const value = parameter.valueReference?.reference ?? parameter.valueString;
      if (parameter.name && value) variables.set(parameter.name, value);
    }
    parts.push(...instantiate(policy, variables));
  }
  if (!found && profile.reference?.startsWith('Patient/')) {
    const projectDefault = await readPolicy(session, project.defaultPatientAccessPolicy);
    return projectDefault
      ? { ...projectDefault, resource: instantiate(projectDefault, base) }
      : defaultPatientPolicy(profile);
  }
  // A membership that names a policy which no longer exists gets nothing rather than everything.
  if (!found && (membership.accessPolicy || (membership.access ?? []).length > 0)) {
    return { resourceType: 'AccessPolicy', name: 'Missing policy', resource: [] };
  }
  return found ? { resourceType: 'AccessPolicy', resource: parts } : undefined;
}
