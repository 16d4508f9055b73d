import type { ClientStorage } from './clientStorage';
import type { LoginState } from './authTypes';

const keys = {
  activeLogin: 'hearth.activeLogin',
  logins: 'hearth.logins',
  codeVerifier: 'hearth.codeVerifier',
  oauthState: 'hearth.oauthState',
} as const;

export const LOGIN_STORAGE_KEYS = keys;

/** Two records are the same account when they act as the same profile in the same project. */
export function sameAccount(a: LoginState, b: LoginState): boolean {
  if (!a.profile?.reference || !b.profile?.reference) return a.accessToken === b.accessToken;
  return a.profile.reference === b.profile.reference && a.project?.reference === b.project?.reference;
}

/**
 * The logins kept in storage: all accounts signed in on this device (for the account switcher),
 * which one is active, and the PKCE values of a sign-in in progress.
 */
export class LoginStore {
  constructor(private readonly storage: ClientStorage) {}

  private read<T>(key: string): T | undefined {
    const text = this.storage.getItem(key);
    if (!text) return undefined;
    try {
      return JSON.parse(text) as T;
    } catch {
      // A value written by something else: treat it as absent rather than failing sign-in.
      return undefined;
    }
  }

  getActiveLogin(): LoginState | undefined {
    const login = this.read<LoginState>(keys.activeLogin);
    return typeof login?.accessToken === 'string' ? login : undefined;
  }

  /** Makes `login` the active one and adds it to (or replaces it in) the list. */
  setActiveLogin(login: LoginState): void {
    this.storage.setItem(keys.activeLogin, JSON.stringify(login));
    const others = this.getLogins().filter((existing) => !sameAccount(existing, login));
    this.storage.setItem(keys.logins, JSON.stringify([...others, login]));
  }

  clearActiveLogin(): void {
    this.storage.removeItem(keys.activeLogin);
  }

  getLogins(): LoginState[] {
    const logins = this.read<LoginState[]>(keys.logins);
    return Array.isArray(logins) ? logins.filter((login) => typeof login?.accessToken === 'string') : [];
  }

  /**
   * Puts `renewed` (new tokens of the same account) where `previous` was in the list, leaving the
   * active login alone: an account renewed while another one is in use stays the one not in use.
   */
  replaceLogin(previous: LoginState, renewed: LoginState): void {
    const logins = this.getLogins();
    const index = logins.findIndex((existing) => sameAccount(existing, previous));
    if (index === -1) logins.push(renewed);
    else logins[index] = renewed;
    this.storage.setItem(keys.logins, JSON.stringify(logins));
  }

  removeLogin(login: LoginState): void {
    const remaining = this.getLogins().filter((existing) => !sameAccount(existing, login));
    this.storage.setItem(keys.logins, JSON.stringify(remaining));
  }

  getCodeVerifier(): string | undefined {
    return this.storage.getItem(keys.codeVerifier) ?? undefined;
  }

  setCodeVerifier(verifier: string): void {
    this.storage.setItem(keys.codeVerifier, verifier);
  }

  getOAuthState(): string | undefined {
    return this.storage.getItem(keys.oauthState) ?? undefined;
  }

  setOAuthState(state: string): void {
    this.storage.setItem(keys.oauthState, state);
  }

  /** Forgets the PKCE values once a code has been exchanged: each is good for one sign-in. */
  clearPendingSignIn(): void {
    this.storage.removeItem(keys.codeVerifier);
    this.storage.removeItem(keys.oauthState);
  }

  clear(): void {
    for (const key of Object.values(keys)) this.storage.removeItem(key);
  }
}
