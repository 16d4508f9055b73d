import { describe, expect, it } from 'vitest';
import { scopeSet, userInfoClaims } from './userInfoClaims';

describe('userInfoClaims', () => {
  const source = {
    subject: 'u1',
    profileReference: 'Practitioner/p1',
    name: { given: ['Ada', 'B.'], family: 'Lovelace' },
    email: 'ada@example.org',
    emailVerified: true,
  };

  it('answers sub alone for openid', () => {
    expect(userInfoClaims(scopeSet('openid'), source)).toEqual({ sub: 'u1' });
  });

  it('adds each group of claims under its own scope only', () => {
    expect(userInfoClaims(scopeSet(' openid  profile '), source)).toEqual({
      sub: 'u1',
      profile: 'Practitioner/p1',
      name: 'Ada B. Lovelace',
      given_name: 'Ada',
      family_name: 'Lovelace',
    });
    expect(userInfoClaims(scopeSet('openid email'), source)).toEqual({
      sub: 'u1',
      email: 'ada@example.org',
      email_verified: true,
    });
    expect(userInfoClaims(scopeSet('openid fhirUser'), source)).toEqual({ sub: 'u1', fhirUser: 'Practitioner/p1' });
  });

  it('leaves out what is not known (a client acting as itself has no e-mail or name)', () => {
    expect(
      userInfoClaims(scopeSet('openid profile email'), { subject: 'c1', profileReference: 'ClientApplication/c1' }),
    ).toEqual({ sub: 'c1', profile: 'ClientApplication/c1' });
  });
});
