import { describe, expect, it } from 'vitest';
import { appLaunchUrl, launchUriProblem } from './appLaunch';

describe('launchUriProblem', () => {
  it('accepts https anywhere and http only on loopback, naming the launch URI otherwise', () => {
    expect(launchUriProblem('https://apps.example/growth/launch.html')).toBeUndefined();
    expect(launchUriProblem('http://127.0.0.1:8103/smart-launch-check/launch.html')).toBeUndefined();
    expect(launchUriProblem('http://apps.example/launch')).toBe(
      'Launch URI must use https (http only for localhost or 127.0.0.1)',
    );
    expect(launchUriProblem('javascript:alert(1)')).toBe('Launch URI scheme "javascript:" is not allowed: use https');
    expect(launchUriProblem('launch.html')).toBe('Launch URI must be an absolute URL');
  });
});

describe('appLaunchUrl', () => {
  const iss = 'https://ehr.example/fhir/R4';

  it('adds iss and launch, keeping what the launch URI already carries', () => {
    const url = new URL(appLaunchUrl('https://apps.example/launch.html?client_id=abc#top', iss, 'L-1'));
    expect(url.origin + url.pathname).toBe('https://apps.example/launch.html');
    expect(url.searchParams.get('client_id')).toBe('abc');
    expect(url.searchParams.get('iss')).toBe(iss);
    expect(url.searchParams.get('launch')).toBe('L-1');
    expect(url.hash).toBe('#top');
  });

  it('replaces an iss or launch the launch URI names itself (the app must not be pointed elsewhere)', () => {
    const url = new URL(appLaunchUrl('https://apps.example/l?iss=https://evil.example/fhir&launch=x', iss, 'L-2'));
    expect(url.searchParams.getAll('iss')).toEqual([iss]);
    expect(url.searchParams.getAll('launch')).toEqual(['L-2']);
  });

  it('refuses to build a launch to an address a browser must not be sent to', () => {
    expect(() => appLaunchUrl('javascript:alert(1)//', iss, 'L-3')).toThrow(
      'Launch URI scheme "javascript:" is not allowed: use https',
    );
    expect(() => appLaunchUrl('http://apps.example/launch', iss, 'L-3')).toThrow(/must use https/);
  });
});
