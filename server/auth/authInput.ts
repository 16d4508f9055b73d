import { errors } from '../fhir/fhirError';

/** Checks of the JSON bodies of the /auth endpoints: each failure names its field (shown under it in the app). */

export type AuthBody = Record<string, unknown>;

export function authBody(body: unknown): AuthBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw errors.invalid('The request body must be a JSON object');
  }
  return body as AuthBody;
}

export function requiredString(body: AuthBody, field: string, label: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value.trim() === '') throw errors.invalid(`${label} is required`, field);
  return value;
}

export function optionalString(body: AuthBody, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw errors.invalid(`${field} must be a string`, field);
  return value;
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function requiredEmail(body: AuthBody, field = 'email'): string {
  const value = requiredString(body, field, 'Email');
  if (!emailPattern.test(value.trim())) throw errors.invalid('Invalid email address', field);
  return value.trim().toLowerCase();
}

export const minPasswordLength = 8;

export function newPassword(body: AuthBody, field = 'password'): string {
  const value = requiredString(body, field, 'Password');
  if (value.length < minPasswordLength) {
    throw errors.invalid(`Password must be at least ${minPasswordLength} characters`, field);
  }
  if (value.length > 256) throw errors.invalid('Password must be at most 256 characters', field);
  return value;
}

/** PKCE parameters of a sign-in start: both or neither, and only S256. */
export function pkceParameters(body: AuthBody): { codeChallenge?: string; codeChallengeMethod?: string } {
  const codeChallenge = optionalString(body, 'codeChallenge');
  const codeChallengeMethod = optionalString(body, 'codeChallengeMethod');
  if (!codeChallenge && !codeChallengeMethod) return {};
  if (!codeChallenge) throw errors.invalid('Missing codeChallenge', 'codeChallenge');
  if (codeChallengeMethod !== 'S256') throw errors.invalid('codeChallengeMethod must be S256', 'codeChallengeMethod');
  if (!/^[A-Za-z0-9\-_]{43}$/.test(codeChallenge)) throw errors.invalid('Invalid codeChallenge', 'codeChallenge');
  return { codeChallenge, codeChallengeMethod };
}
