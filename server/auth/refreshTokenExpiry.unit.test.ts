import { describe, expect, it } from 'vitest';
import { refreshTokenExpired } from './refreshTokenExpiry';

const hour = 3600_000;
const day = 24 * hour;
const signedIn = Date.parse('2026-11-01T08:00:00Z');
const at = (offset: number) => new Date(signedIn + offset).toISOString();

describe('refreshTokenExpired', () => {
  it('keeps the sign-in limits: one day, or fourteen with Remember me', () => {
    const clock = { authTime: at(0), issuedAt: at(0), remembered: false };
    expect(refreshTokenExpired(clock, signedIn + day - 1000)).toBe(false);
    expect(refreshTokenExpired(clock, signedIn + day + 1000)).toBe(true);
    const remembered = { ...clock, remembered: true };
    expect(refreshTokenExpired(remembered, signedIn + 13 * day)).toBe(false);
    expect(refreshTokenExpired(remembered, signedIn + 14 * day + 1000)).toBe(true);
  });

  it("ends a token its client's refreshTokenLifetime after it was issued, and a refresh starts it again", () => {
    const first = { authTime: at(0), issuedAt: at(0), remembered: true, clientLifetime: '30m' };
    expect(refreshTokenExpired(first, signedIn + 29 * 60_000)).toBe(false);
    expect(refreshTokenExpired(first, signedIn + 31 * 60_000)).toBe(true);
    // Refreshed at 25 minutes: the new token lasts until 55.
    const second = { ...first, issuedAt: at(25 * 60_000) };
    expect(refreshTokenExpired(second, signedIn + 50 * 60_000)).toBe(false);
    expect(refreshTokenExpired(second, signedIn + 56 * 60_000)).toBe(true);
  });

  it("never keeps a session past the sign-in's limit, whatever the client says", () => {
    const clock = { authTime: at(0), issuedAt: at(23 * hour), remembered: false, clientLifetime: '30d' };
    expect(refreshTokenExpired(clock, signedIn + 23.5 * hour)).toBe(false);
    expect(refreshTokenExpired(clock, signedIn + 25 * hour)).toBe(true);
  });

  it('ignores a lifetime it cannot read, and counts from sign-in when the issue time is unknown', () => {
    const unreadable = { authTime: at(0), issuedAt: at(0), remembered: false, clientLifetime: 'soon' };
    expect(refreshTokenExpired(unreadable, signedIn + 12 * hour)).toBe(false);
    const noIssue = { authTime: at(0), remembered: false, clientLifetime: '1h' };
    expect(refreshTokenExpired(noIssue, signedIn + 2 * hour)).toBe(true);
  });
});
