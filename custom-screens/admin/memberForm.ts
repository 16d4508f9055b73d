import type { ProjectMembership } from '@medplum/fhirtypes';

/** What the member dialog edits of a membership. */
export interface MemberForm {
  /** `AccessPolicy/{id}`, or '' for none (the whole project). */
  accessPolicy: string;
  admin: boolean;
  active: boolean;
  /** `Practitioner/{id}` (or Patient, RelatedPerson): who the member acts as. */
  profile: string;
}

export type MemberField = 'accessPolicy' | 'admin' | 'profile';

const profilePattern = /^(Practitioner|Patient|RelatedPerson)\/[A-Za-z0-9\-.]{1,64}$/;

export function memberFormOf(membership: ProjectMembership): MemberForm {
  return {
    accessPolicy: membership.accessPolicy?.reference ?? '',
    admin: membership.admin === true,
    active: membership.active !== false,
    profile: membership.profile?.reference ?? '',
  };
}

export function memberFormProblems(form: MemberForm, stored: ProjectMembership): Partial<Record<MemberField, string>> {
  const profile = form.profile.trim();
  if (profile !== stored.profile?.reference && !profilePattern.test(profile)) {
    return { profile: 'The profile is a Practitioner, Patient or RelatedPerson, e.g. Practitioner/123' };
  }
  return {};
}

/**
 * The membership to send: the stored one with the dialog's fields (a FHIR update of the whole).
 * A newly chosen policy carries its name as display, which the members table shows.
 */
export function membershipOf(stored: ProjectMembership, form: MemberForm, policyName?: string): ProjectMembership {
  const profile = form.profile.trim();
  const next: ProjectMembership = {
    ...stored,
    admin: form.admin,
    active: form.active,
    profile: profile === stored.profile?.reference ? stored.profile : { reference: profile },
  };
  if (form.accessPolicy) {
    next.accessPolicy =
      form.accessPolicy === stored.accessPolicy?.reference
        ? stored.accessPolicy
        : { reference: form.accessPolicy, ...(policyName ? { display: policyName } : {}) };
  } else delete next.accessPolicy;
  return next;
}

/** `ProjectMembership.profile` (a server issue's path) as the dialog's field. */
export function memberField(expression: string): MemberField | undefined {
  const field = expression.replace(/^ProjectMembership\./, '').replace(/\[\d+\].*$/, '');
  return field === 'accessPolicy' || field === 'admin' || field === 'profile' ? field : undefined;
}
