import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636: does `verifier` answer `challenge`? Only S256 is accepted (plain gives no protection). */
export function verifyCodeChallenge(verifier: string, challenge: string, method: string): boolean {
  if (method !== 'S256') return false;
  if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}
