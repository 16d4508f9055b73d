import { describe, expect, it } from 'vitest';
import { isAllowedRedirectUri, redirectUriProblem } from './redirectUri';

describe('redirectUriProblem', () => {
  it('accepts https anywhere and http only on loopback', () => {
    for (const address of [
      'https://app.example/cb',
      'https://app.example:8443/cb?x=1',
      'http://localhost:3000/cb',
      'http://127.0.0.1:9/callback',
      'http://127.1/cb',
      'http://[::1]:8080/cb',
    ])
      expect(redirectUriProblem(address), address).toBeUndefined();
  });

  it('refuses script, data and other schemes, and http to other hosts', () => {
    expect(redirectUriProblem('javascript:alert(document.cookie)')).toBe(
      'Redirect URI scheme "javascript:" is not allowed: use https',
    );
    expect(redirectUriProblem(' JavaScript:alert(1)')).toBe(
      'Redirect URI scheme "javascript:" is not allowed: use https',
    );
    expect(redirectUriProblem('java\tscript:alert(1)')).toBe(
      'Redirect URI scheme "javascript:" is not allowed: use https',
    );
    for (const address of [
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      'myapp://callback',
      'blob:https://app.example/1',
    ])
      expect(isAllowedRedirectUri(address), address).toBe(false);
    expect(redirectUriProblem('http://app.example/cb')).toBe(
      'Redirect URI must use https (http only for localhost or 127.0.0.1)',
    );
    expect(redirectUriProblem('http://localhost.evil.example/cb')).toMatch(/must use https/);
    expect(redirectUriProblem('http://127.0.0.1.evil.example/cb')).toMatch(/must use https/);
    expect(redirectUriProblem('/relative/cb')).toBe('Redirect URI must be an absolute URL');
    expect(redirectUriProblem('')).toBe('Redirect URI must be an absolute URL');
  });
});
