/**
 * DoseSpot single sign-on (RESTful API guide §1.6): the SSO code and the user-id verification
 * value, both SHA-512 over UTF-8 text, base64 with a trailing '==' removed.
 */

const PHRASE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const SSO_PHRASE_LENGTH = 32;
/** The user-id verification uses the phrase's first 22 characters. */
export const SSO_VERIFY_PHRASE_LENGTH = 22;

/** A random alphanumeric phrase (the sandbox's crypto.getRandomValues; no modulo bias worth a clinic key). */
export function randomPhrase(length = SSO_PHRASE_LENGTH): string {
  const bytes = new Uint8Array(length);
  crypto.getRandomValues(bytes);
  let phrase = '';
  for (const byte of bytes) phrase += PHRASE_ALPHABET[byte % PHRASE_ALPHABET.length];
  return phrase;
}

async function sha512Base64(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-512', new TextEncoder().encode(text)));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  const base64 = btoa(binary);
  // The guide: "If there are two '=' signs at the end, remove them."
  return base64.endsWith('==') ? base64.slice(0, -2) : base64;
}

/** The SSO code: the phrase, then base64(SHA-512(phrase + clinic key)). */
export async function ssoCode(phrase: string, clinicKey: string): Promise<string> {
  return phrase + (await sha512Base64(phrase + clinicKey));
}

/** The user-id verification: base64(SHA-512(user id + first 22 characters of the phrase + clinic key)). */
export async function ssoUserIdVerify(userId: string, phrase: string, clinicKey: string): Promise<string> {
  return sha512Base64(userId + phrase.slice(0, SSO_VERIFY_PHRASE_LENGTH) + clinicKey);
}

export interface SsoUrlRequest {
  baseUrl: string;
  clinicId: string;
  clinicKey: string;
  clinicianId: string;
  /** The DoseSpot patient to open; without one DoseSpot opens the clinician's notifications. */
  doseSpotPatientId?: number | string;
  phrase?: string;
}

/** The LoginSingleSignOn.aspx address that opens DoseSpot for the clinician (on a patient, or their notifications). */
export async function ssoUrl(request: SsoUrlRequest): Promise<string> {
  const phrase = request.phrase ?? randomPhrase();
  const url = new URL('LoginSingleSignOn.aspx', request.baseUrl);
  url.searchParams.set('SingleSignOnClinicId', request.clinicId);
  url.searchParams.set('SingleSignOnUserId', request.clinicianId);
  url.searchParams.set('SingleSignOnPhraseLength', String(phrase.length));
  url.searchParams.set('SingleSignOnCode', await ssoCode(phrase, request.clinicKey));
  url.searchParams.set(
    'SingleSignOnUserIdVerify',
    await ssoUserIdVerify(request.clinicianId, phrase, request.clinicKey),
  );
  if (request.doseSpotPatientId !== undefined) url.searchParams.set('PatientId', String(request.doseSpotPatientId));
  else url.searchParams.set('RefillsErrors', '1');
  return url.toString();
}
