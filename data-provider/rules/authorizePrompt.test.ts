import { describe, expect, it } from 'vitest';
import { parseAuthorizePrompt } from './authorizePrompt';

describe('parseAuthorizePrompt', () => {
  it('accepts no prompt and the interactive values, space-separated', () => {
    expect(parseAuthorizePrompt(undefined)).toEqual({ ok: true, values: new Set() });
    const both = parseAuthorizePrompt('login consent');
    expect(both.ok && [...both.values]).toEqual(['login', 'consent']);
    expect(parseAuthorizePrompt('select_account').ok).toBe(true);
  });

  it('answers interaction_required to prompt=none, which can never be served without a page', () => {
    expect(parseAuthorizePrompt('none')).toMatchObject({ ok: false, error: 'interaction_required' });
  });

  it('refuses none with another value, and unknown values by name', () => {
    expect(parseAuthorizePrompt('none login')).toMatchObject({
      ok: false,
      error: 'invalid_request',
      description: 'prompt=none cannot be combined with other prompt values',
    });
    expect(parseAuthorizePrompt('login silently')).toMatchObject({
      ok: false,
      error: 'invalid_request',
      description: 'Unknown prompt "silently": use none, login, consent or select_account',
    });
  });
});
