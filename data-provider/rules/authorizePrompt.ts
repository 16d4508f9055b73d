/** OpenID Connect's `prompt` values (Core 1.0 §3.1.2.1) that `/oauth2/authorize` understands. */
const knownPrompts = new Set(['none', 'login', 'consent', 'select_account']);

/** What an app's `prompt` asks of the sign-in page, or the OAuth2 error that refuses it. */
export type AuthorizePrompt =
  | { ok: true; values: ReadonlySet<string> }
  | { ok: false; error: 'invalid_request' | 'interaction_required'; description: string };

/**
 * Reads `prompt`. `none` asks for a code without showing anything, but Hearth EMR keeps a person's
 * session in the browser (the server cannot see it) and always asks them which access to give the
 * app, so it can never answer without a page: OIDC's `interaction_required`, which sends the app to
 * an ordinary sign-in. `login` means the person must sign in again (no "Continue as").
 */
export function parseAuthorizePrompt(prompt: string | undefined): AuthorizePrompt {
  const values = new Set((prompt ?? '').split(' ').filter((value) => value !== ''));
  const unknown = [...values].filter((value) => !knownPrompts.has(value));
  if (unknown.length > 0) {
    return {
      ok: false,
      error: 'invalid_request',
      description: `Unknown prompt ${unknown.map((value) => `"${value}"`).join(', ')}: use none, login, consent or select_account`,
    };
  }
  if (values.has('none') && values.size > 1) {
    return {
      ok: false,
      error: 'invalid_request',
      description: 'prompt=none cannot be combined with other prompt values',
    };
  }
  if (values.has('none')) {
    return {
      ok: false,
      error: 'interaction_required',
      description:
        'Hearth EMR signs people in and asks what the app may do on its own page: start the sign-in without prompt=none',
    };
  }
  return { ok: true, values };
}
