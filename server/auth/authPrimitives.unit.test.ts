import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, otpauthUrl, totpCode, totpStep } from './totp';
import { s256Challenge, verifyCodeChallenge } from './pkce';
import { parseLifetime, scopesToConfirm } from './loginService';

describe('TOTP (RFC 6238)', () => {
  // RFC 6238 appendix B, SHA-1 secret "12345678901234567890", truncated to 6 digits.
  const secret = base32Encode(Buffer.from('12345678901234567890'));
  it('matches the RFC test vectors', () => {
    expect(totpCode(secret, 59_000)).toBe('287082');
    expect(totpCode(secret, 1111111109_000)).toBe('081804');
    expect(totpCode(secret, 2000000000_000)).toBe('279037');
  });
  it('accepts one step of drift, not two, and only six digits', () => {
    const now = 1_700_000_000_000;
    expect(totpStep(secret, totpCode(secret, now - 30_000), now)).toBeDefined();
    expect(totpStep(secret, totpCode(secret, now - 60_000), now)).toBeUndefined();
    expect(totpStep(secret, '12345', now)).toBeUndefined();
    expect(totpStep(secret, `${totpCode(secret, now)}0`, now)).toBeUndefined();
  });
  it('names the time step a code belongs to (what a used code is remembered by)', () => {
    const now = 1_700_000_000_000;
    const step = Math.floor(now / 30_000);
    expect(totpStep(secret, totpCode(secret, now), now)).toBe(step);
    expect(totpStep(secret, totpCode(secret, now + 30_000), now)).toBe(step + 1);
    expect(totpStep(secret, totpCode(secret, now - 30_000), now)).toBe(step - 1);
    expect(totpStep(secret, totpCode(secret, now + 60_000), now)).toBeUndefined();
  });
  it('round-trips base32 and rejects foreign characters', () => {
    expect(base32Decode(base32Encode(Buffer.from('hello world'))).toString()).toBe('hello world');
    expect(() => base32Decode('ABC1')).toThrow('Invalid base32 character "1"');
    expect(otpauthUrl('ABC', 'a@b.c', 'Hearth EMR')).toBe(
      'otpauth://totp/Hearth%20EMR%3Aa%40b.c?secret=ABC&issuer=Hearth%20EMR&algorithm=SHA1&digits=6&period=30',
    );
  });
});

describe('PKCE', () => {
  it('accepts the S256 verifier of a challenge and nothing else', () => {
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    // RFC 7636 appendix B.
    expect(s256Challenge(verifier)).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    expect(verifyCodeChallenge(verifier, 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', 'S256')).toBe(true);
    expect(verifyCodeChallenge(verifier, verifier, 'plain')).toBe(false);
    expect(verifyCodeChallenge(`${verifier}x`, 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', 'S256')).toBe(false);
    expect(verifyCodeChallenge('short', s256Challenge('short'), 'S256')).toBe(false);
  });
});

describe('sign-in rules', () => {
  it('asks to confirm only SMART scopes', () => {
    expect(scopesToConfirm('openid profile offline_access')).toEqual([]);
    expect(scopesToConfirm('openid patient/*.read launch')).toEqual(['patient/*.read', 'launch']);
  });
  it('reads token lifetimes in seconds or with a unit', () => {
    expect(parseLifetime('90')).toBe(90);
    expect(parseLifetime('2h')).toBe(7200);
    expect(parseLifetime('30m')).toBe(1800);
    expect(parseLifetime('soon')).toBe(3600);
  });
});
