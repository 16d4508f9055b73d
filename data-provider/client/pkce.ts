import { PKCE_VERIFIER_LENGTH } from './clientDefaults';

/** RFC 7636 §4.1: a verifier uses the URL-safe "unreserved" characters only. */
export const UNRESERVED_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';

/**
 * A random string over `alphabet`. Bytes that would favour the first letters of the alphabet
 * (256 is not a multiple of its length) are drawn again, so every letter is equally likely.
 */
export function createRandomString(length: number, alphabet = UNRESERVED_ALPHABET): string {
  const limit = 256 - (256 % alphabet.length);
  let result = '';
  while (result.length < length) {
    const bytes = globalThis.crypto.getRandomValues(new Uint8Array(length));
    for (const byte of bytes) {
      if (byte < limit && result.length < length) result += alphabet[byte % alphabet.length];
    }
  }
  return result;
}

export function createCodeVerifier(): string {
  return createRandomString(PKCE_VERIFIER_LENGTH);
}

export function base64UrlEncode(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The S256 challenge: base64url of the SHA-256 of the verifier. */
export async function createCodeChallenge(verifier: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64UrlEncode(new Uint8Array(digest));
}
