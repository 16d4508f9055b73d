import { errors } from '../fhir/fhirError';
import type { OutgoingEmail } from './emailSender';

// No control characters either: mail libraries drop them silently, so the address checked here
// would not be the one written to the message.
const emailPattern = /^[^\s\p{Cc}@<>(),;:"]+@[^\s\p{Cc}@<>(),;:"]+\.[^\s\p{Cc}@<>(),;:"]+$/u;
/** Line breaks of any kind and other control characters: a subject is one header line, and it is logged. */
const subjectControl = /[\p{Cc}\u2028\u2029]/u;
export const maxRecipients = 50;
export const maxSubjectLength = 998;
export const maxBodyLength = 1024 * 1024;

function addresses(value: unknown, field: string, required: boolean): string[] {
  if (value === undefined || value === null || value === '') {
    if (required) throw errors.invalid(`Missing ${field}`, field);
    return [];
  }
  const list = Array.isArray(value) ? value : [value];
  if (list.length > maxRecipients) throw errors.invalid(`At most ${maxRecipients} addresses in ${field}`, field);
  return list.map((address, index) => {
    if (typeof address !== 'string' || !emailPattern.test(address.trim())) {
      throw errors.invalid(
        `Invalid e-mail address in ${field}: "${String(address)}"`,
        Array.isArray(value) ? `${field}[${index}]` : field,
      );
    }
    return address.trim();
  });
}

function optionalText(body: Record<string, unknown>, field: string, max: number): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw errors.invalid(`${field} must be a string`, field);
  if (value.length > max) throw errors.invalid(`${field} is longer than ${max} characters`, field);
  return value;
}

/**
 * `POST /email/v1/send`'s body, checked: `{to, cc?, bcc?, subject, text?, html?}` (text or html
 * needed). `from` is ignored: mail always leaves as EMAIL_FROM.
 */
export function parseOutgoingEmail(body: unknown): OutgoingEmail {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw errors.invalid('The request body must be a JSON object {to, cc?, subject, text?, html?}');
  }
  const input = body as Record<string, unknown>;
  const to = addresses(input.to, 'to', true);
  const cc = addresses(input.cc, 'cc', false);
  const bcc = addresses(input.bcc, 'bcc', false);
  if (input.attachments !== undefined) {
    throw errors.notSupported('Attachments are not supported: link to a Binary instead');
  }
  const subject = optionalText(input, 'subject', maxSubjectLength)?.trim();
  if (!subject) throw errors.invalid('Missing subject', 'subject');
  if (subjectControl.test(subject)) {
    throw errors.invalid('subject must be one line without control characters', 'subject');
  }
  const text = optionalText(input, 'text', maxBodyLength);
  const html = optionalText(input, 'html', maxBodyLength);
  if (!text && !html) throw errors.invalid('Missing text or html (the message body)', 'text');
  return {
    to,
    ...(cc.length > 0 ? { cc } : {}),
    ...(bcc.length > 0 ? { bcc } : {}),
    subject,
    ...(text ? { text } : {}),
    ...(html ? { html } : {}),
  };
}
