import type { ClientApplication, SmartAppLaunch } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { tokenRedirectUriProblem } from './clientRedirect';
import { launchLifetimeMs, launchUseProblem, launchUseRefusal } from './launchContext';

const app: ClientApplication = {
  resourceType: 'ClientApplication',
  id: 'app',
  redirectUri: 'http://localhost:9999/cb',
  redirectUris: ['https://app.example/second'],
};

describe('tokenRedirectUriProblem (RFC 6749 §4.1.3)', () => {
  const mismatch = { error: 'invalid_grant', description: 'redirect_uri does not match the authorization request' };

  it('asks for the very redirect_uri the authorization request named', () => {
    const named = 'http://localhost:9999/cb';
    expect(tokenRedirectUriProblem(app, named, named)).toBeUndefined();
    expect(tokenRedirectUriProblem(app, named, undefined)).toEqual({
      error: 'invalid_request',
      description: 'Missing redirect_uri: the authorization request named one',
    });
    expect(tokenRedirectUriProblem(app, named, '')?.error).toBe('invalid_request');
    // Another of the client's own addresses, or the same one spelled otherwise, is not the same.
    expect(tokenRedirectUriProblem(app, named, 'https://app.example/second')).toEqual(mismatch);
    expect(tokenRedirectUriProblem(app, named, 'http://localhost:9999/cb/')).toEqual(mismatch);
    expect(tokenRedirectUriProblem(app, named, 'HTTP://localhost:9999/cb')).toEqual(mismatch);
  });

  it('without a recorded one, takes none or a registered address of the client', () => {
    expect(tokenRedirectUriProblem(app, undefined, undefined)).toBeUndefined();
    expect(tokenRedirectUriProblem(app, undefined, 'https://app.example/second')).toBeUndefined();
    expect(tokenRedirectUriProblem(app, undefined, 'https://evil.example/cb')).toEqual(mismatch);
    // This web app's own sign-in (no client): its pages are not registered anywhere.
    expect(tokenRedirectUriProblem(undefined, undefined, 'http://127.0.0.1:8103/signin')).toBeUndefined();
  });
});

describe('launchUseProblem', () => {
  const now = Date.parse('2026-12-01T10:00:00Z');
  const alice = { reference: 'Practitioner/alice' };
  const launch = (author: string | undefined, writtenMsAgo: number): SmartAppLaunch => ({
    resourceType: 'SmartAppLaunch',
    id: 'l1',
    patient: { reference: 'Patient/x' },
    meta: {
      ...(author ? { author: { reference: author } } : {}),
      lastUpdated: new Date(now - writtenMsAgo).toISOString(),
    },
  });
  const someoneElse = 'This launch was started by someone else: launch the application from your own session';
  const expired = 'This launch has expired: launch the application again';

  it("is its author's alone", () => {
    expect(launchUseProblem(launch('Practitioner/alice', 1000), alice, true, now)).toBeUndefined();
    expect(launchUseProblem(launch('Practitioner/alice', 1000), { reference: 'Patient/demo' }, true, now)).toBe(
      someoneElse,
    );
    expect(launchUseProblem(launch('Practitioner/bob', 1000), alice, false, now)).toBe(someoneElse);
    expect(launchUseProblem(launch(undefined, 1000), alice, true, now)).toBe(someoneElse);
  });

  it('must be taken up within its lifetime; refreshes of the sign-in that took it go on', () => {
    expect(launchUseProblem(launch('Practitioner/alice', launchLifetimeMs), alice, true, now)).toBeUndefined();
    expect(launchUseProblem(launch('Practitioner/alice', launchLifetimeMs + 1), alice, true, now)).toBe(expired);
    expect(launchUseProblem(launch('Practitioner/alice', 30 * 24 * 3600_000), alice, false, now)).toBeUndefined();
    const unreadable = { ...launch('Practitioner/alice', 0), meta: { author: alice, lastUpdated: 'never' } };
    expect(launchUseProblem(unreadable, alice, true, now)).toBe(expired);
  });

  it('by name for the /oauth page: someone else learns only that it is not theirs, even once it expired', () => {
    const old = launch('Practitioner/alice', launchLifetimeMs + 1);
    expect(launchUseRefusal(old, alice, true, now)).toBe('expired');
    expect(launchUseRefusal(old, { reference: 'Practitioner/bob' }, true, now)).toBe('startedBySomeoneElse');
    expect(launchUseRefusal(launch('Practitioner/alice', 1000), alice, true, now)).toBeUndefined();
  });
});
