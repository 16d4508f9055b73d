import type { ProjectMembership, Reference } from '@medplum/fhirtypes';
import { authBody, newPassword, optionalString, requiredEmail, requiredString } from '../auth/authInput';
import { errors } from '../fhir/fhirError';
import { checkShape } from './membershipChange';

export type InviteProfileType = 'Practitioner' | 'Patient' | 'RelatedPerson';
const profileTypes: readonly InviteProfileType[] = ['Practitioner', 'Patient', 'RelatedPerson'];
const referencePattern = /^[A-Z][A-Za-z]+\/[A-Za-z0-9\-.]{1,64}$/;

/** The checked body of `POST /admin/projects/{id}/invite`. */
export interface InviteRequest {
  resourceType: InviteProfileType;
  firstName: string;
  lastName: string;
  email: string;
  /** Sets the password of a new user at once (otherwise the e-mailed link does). */
  password?: string;
  sendEmail: boolean;
  admin: boolean;
  accessPolicy?: Reference;
  /** The rest of the membership (access with parameters, userConfiguration…). */
  membership: Partial<ProjectMembership>;
  /** For a new RelatedPerson: the patient they are related to. */
  patient?: Reference;
  /**
   * An existing profile of the project, of the invited type (Medplum's `membership.profile`): the
   * membership is made for it instead of a new one, e.g. a patient's chart from registration.
   */
  profile?: Reference;
}

function optionalReference(
  value: unknown,
  field: string,
  type: string,
  message = `${field} must be a reference to a ${type} (${type}/id)`,
): Reference | undefined {
  if (value === undefined || value === null) return undefined;
  const reference = typeof value === 'object' ? (value as Reference).reference : undefined;
  if (typeof reference !== 'string' || !referencePattern.test(reference) || !reference.startsWith(`${type}/`)) {
    throw errors.invalid(message, field);
  }
  return { reference };
}

/**
 * Membership fields an invitation may set; who and where are the server's to fill in. `profile`
 * names an existing profile to link (checked against the project in invitation.ts).
 */
const membershipFields = [
  'access',
  'accessPolicy',
  'userConfiguration',
  'admin',
  'externalId',
  'active',
  'profile',
] as const;

export function parseInvite(body: unknown): InviteRequest {
  const input = authBody(body);
  const resourceType = input.resourceType as InviteProfileType;
  if (!profileTypes.includes(resourceType)) {
    throw errors.invalid('resourceType must be Practitioner, Patient or RelatedPerson', 'resourceType');
  }
  const membershipInput = (input.membership ?? {}) as Record<string, unknown>;
  if (typeof membershipInput !== 'object' || Array.isArray(membershipInput)) {
    throw errors.invalid('membership must be an object', 'membership');
  }
  const unknownField = Object.keys(membershipInput).find(
    (key) => !(membershipFields as readonly string[]).includes(key),
  );
  if (unknownField) {
    throw errors.invalid(`membership.${unknownField} cannot be set by an invitation`, `membership.${unknownField}`);
  }
  // The shapes an admin's member edit must have: the invitation's references are read as the
  // server next (invitation.ts), which needs them to be what they claim.
  for (const field of ['access', 'userConfiguration', 'externalId', 'active'] as const) {
    const value = membershipInput[field];
    if (value !== undefined && value !== null) checkShape(field, value, `membership.${field}`);
  }
  const membership = { ...membershipInput } as Partial<ProjectMembership>;
  const externalId = optionalString(input, 'externalId');
  if (externalId) membership.externalId = externalId;
  const accessPolicy =
    optionalReference(input.accessPolicy, 'accessPolicy', 'AccessPolicy') ??
    optionalReference(membership.accessPolicy, 'membership.accessPolicy', 'AccessPolicy');
  delete membership.accessPolicy;
  const admin = input.admin ?? membership.admin ?? false;
  if (typeof admin !== 'boolean') throw errors.invalid('admin must be true or false', 'admin');
  delete membership.admin;
  // The invited role decides the profile's type: an invitation as a Patient links a Patient only.
  const profile = optionalReference(
    membershipInput.profile,
    'membership.profile',
    resourceType,
    `The profile must be a ${resourceType} (${resourceType}/id), like the role invited`,
  );
  delete membership.profile;
  if (profile && resourceType === 'RelatedPerson' && input.patient !== undefined && input.patient !== null) {
    throw errors.invalid(
      'patient is for a new RelatedPerson only: an existing RelatedPerson keeps the patient it names',
      'patient',
    );
  }
  const sendEmail = input.sendEmail ?? true;
  if (typeof sendEmail !== 'boolean') throw errors.invalid('sendEmail must be true or false', 'sendEmail');
  return {
    resourceType,
    firstName: requiredString(input, 'firstName', 'First name').trim(),
    lastName: requiredString(input, 'lastName', 'Last name').trim(),
    email: requiredEmail(input),
    ...(optionalString(input, 'password') !== undefined ? { password: newPassword(input) } : {}),
    sendEmail,
    admin,
    ...(accessPolicy ? { accessPolicy } : {}),
    membership,
    ...(input.patient !== undefined ? { patient: optionalReference(input.patient, 'patient', 'Patient') } : {}),
    ...(profile ? { profile } : {}),
  };
}
