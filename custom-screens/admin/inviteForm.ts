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
export function inviteOutcome(
  form: InviteForm,
  delivery: 'smtp' | 'outbox' | undefined,
  membership?: { extension?: readonly { url?: string }[] },
): string {
  const who = `${form.firstName.trim()} ${form.lastName.trim()}`;
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
