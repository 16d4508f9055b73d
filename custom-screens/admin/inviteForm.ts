import type { Patient, Reference } from '@medplum/fhirtypes';
import type { InviteRequest } from '../../data-provider/client';
import { awaitsAddressOwner } from '../../data-provider/rules';

export interface InviteForm {
  resourceType: 'Practitioner' | 'Patient' | 'RelatedPerson';
  firstName: string;
  lastName: string;
  email: string;
  accessPolicy: string;
  admin: boolean;
  sendEmail: boolean;
  /** For a patient: a new chart is made, or the invitation links a chart the clinic already has. */
  chart: 'new' | 'existing';
  /** The existing chart chosen (with `chart: 'existing'`). */
  profile?: Reference;
}

export type InviteField = 'firstName' | 'lastName' | 'email' | 'profile';

export const emptyInvite: InviteForm = {
  resourceType: 'Practitioner',
  firstName: '',
  lastName: '',
  email: '',
  accessPolicy: '',
  admin: false,
  sendEmail: true,
  chart: 'new',
};

/** True when the invitation links an existing chart rather than making one. */
export function linksExistingChart(form: InviteForm): boolean {
  return form.resourceType === 'Patient' && form.chart === 'existing';
}

/** What a chart tells about the person, in the form's words: its first name, family name and e-mail. */
export type ChartDetails = Pick<InviteForm, 'firstName' | 'lastName' | 'email'>;

export function chartDetails(patient: Patient): ChartDetails {
  const name = patient.name?.find((entry) => entry.use === 'official') ?? patient.name?.[0];
  return {
    firstName: (name?.given ?? []).join(' ').trim(),
    lastName: name?.family?.trim() ?? '',
    email: patient.telecom?.find((point) => point.system === 'email' && point.value?.trim())?.value?.trim() ?? '',
  };
}

/**
 * The form once a chart is chosen: each name and e-mail field the admin left empty takes the
 * chart's; a field the previously chosen chart filled (`previous`), and not changed since, follows
 * the new choice. What the admin typed stays.
 */
export function withChartDetails(form: InviteForm, chart: ChartDetails, previous?: ChartDetails): InviteForm {
  const next = { ...form };
  for (const field of ['firstName', 'lastName', 'email'] as const) {
    const typed = form[field].trim();
    if (typed === '' || (previous && form[field] === previous[field])) next[field] = chart[field];
  }
  return next;
}

/** Checked before sending, with the words the server would use. */
export function inviteProblems(form: InviteForm): Partial<Record<InviteField, string>> {
  const problems: Partial<Record<InviteField, string>> = {};
  if (!form.firstName.trim()) problems.firstName = 'First name is required';
  if (!form.lastName.trim()) problems.lastName = 'Last name is required';
  if (!form.email.trim()) problems.email = 'Email is required';
  else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email.trim())) problems.email = 'Enter an e-mail address';
  if (linksExistingChart(form) && !form.profile?.reference) problems.profile = "Choose the patient's chart";
  return problems;
}

export function inviteRequestOf(form: InviteForm): InviteRequest & { accessPolicy?: { reference: string } } {
  return {
    resourceType: form.resourceType,
    firstName: form.firstName.trim(),
    lastName: form.lastName.trim(),
    email: form.email.trim(),
    admin: form.admin,
    sendEmail: form.sendEmail,
    ...(form.accessPolicy ? { accessPolicy: { reference: form.accessPolicy } } : {}),
    // Medplum's name for the profile an invitation links instead of making one.
    ...(linksExistingChart(form) && form.profile?.reference
      ? { membership: { profile: { reference: form.profile.reference } } }
      : {}),
  };
}

/** What the admin is told once the invitation went through. */
export function inviteOutcome(
  form: InviteForm,
  delivery: 'smtp' | 'outbox' | undefined,
  membership?: { extension?: readonly { url?: string }[]; profile?: { display?: string } },
): string {
  // A linked chart keeps its own name, which the membership's profile shows.
  const who = membership?.profile?.display?.trim() || `${form.firstName.trim()} ${form.lastName.trim()}`;
  if (membership && awaitsAddressOwner(membership)) {
    // An existing account whose address nobody has proved: the project opens to the address owner only.
    const how = form.sendEmail
      ? `from the e-mail sent to ${form.email.trim()}${delivery === 'outbox' ? " (written to the server's outbox folder: this server has no mail server)" : ''}`
      : 'with "Forgot password" (no e-mail was sent)';
    return `${who} was added, but ${form.email.trim()} already has an account whose address was never confirmed: they can sign in to this project once the owner of the address chooses a password ${how}.`;
  }
  if (!form.sendEmail) return `${who} was added. No e-mail was sent: they sign in with "Forgot password".`;
  if (delivery === 'outbox') {
    return `${who} was added. This server has no mail server (SMTP_URL is not set): the invitation e-mail to ${form.email.trim()} was written to the server's outbox folder and nobody received it.`;
  }
  return `${who} was added and an invitation e-mail was sent to ${form.email.trim()}.`;
}
