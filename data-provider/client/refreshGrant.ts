import type { LoginState, TokenResponse } from './authTypes';

/** The token request that renews a login with its refresh token (OAuth2 refresh grant). */
export function refreshGrantForm(refreshToken: string, clientId: string | undefined): URLSearchParams {
  const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken });
  if (clientId) form.set('client_id', clientId);
  return form;
}

/**
 * The login a token answer gives: its tokens, and what the answer leaves out (a refresh token that
 * was not rotated, the project and profile) kept from the login it renewed, when there is one.
 */
export function loginFromTokens(tokens: TokenResponse, previous: LoginState | undefined): LoginState {
  return {
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token ?? previous?.refreshToken,
    project: tokens.project ?? previous?.project,
    profile: tokens.profile ?? previous?.profile,
  };
}
