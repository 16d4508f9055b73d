import type { InviteRequest } from '../../data-provider/client';

export interface InviteForm {
  resourceType: 'Practitioner' | 'Patient' | 'RelatedPerson';
  firstName: string;
  lastName: string;
  email: string;
  accessPolicy: string;
  admin: boolean;
  sendEmail: boolean;
}

export type InviteField = 'firstName' | 'lastName' | 'email';

export const emptyInvite: InviteForm = {
  resourceType: 'Practitioner',
  firstName: '',
  lastName: '',
  email: '',
  accessPolicy: '',
  admin: false,
  sendEmail: true,
};

/** Checked before sending, with the words the server would use. */
export function inviteProblems(form: InviteForm): Partial<Record<InviteField, string>> {
  const problems: Partial<Record<InviteField, string>> = {};
  if (!form.firstName.trim()) problems.firstName = 'First name is required';
  if (!form.lastName.trim()) problems.lastName = 'Last name is required';
  if (!form.email.trim()) problems.email = 'Email is required';
  else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(form.email.trim())) problems.email = 'Enter an e-mail address';
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
  };
}

/** What the admin is told once the invitation went through. */
export function inviteOutcome(form: InviteForm, delivery: 'smtp' | 'outbox' | undefined): string {
  const who = `${form.firstName.trim()} ${form.lastName.trim()}`;
  if (!form.sendEmail) return `${who} was added. No e-mail was sent: they sign in with "Forgot password".`;
  if (delivery === 'outbox') {
    return `${who} was added. This server has no mail server (SMTP_URL is not set): the invitation e-mail to ${form.email.trim()} was written to the server's outbox folder and nobody received it.`;
  }
  return `${who} was added and an invitation e-mail was sent to ${form.email.trim()}.`;
}
