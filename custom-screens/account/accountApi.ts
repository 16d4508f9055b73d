import type { FhirClient } from '../../data-provider/client';
import { decodeAccessTokenClaims } from '../../data-provider/client';

/** One signed-in session of the user, as GET auth/me lists them. */
export interface ActiveSession {
  id: string;
  lastUpdated?: string;
  authMethod?: string;
  remoteAddress?: string;
  userAgent?: string;
}

export interface SecurityDetails {
  mfaEnrolled: boolean;
  sessions: ActiveSession[];
}

export interface MfaStatus {
  enrolled: boolean;
  /** otpauth:// URL for the authenticator app, only while not enrolled. */
  enrollUri?: string;
}

const authUrl = (client: FhirClient, path: string) => new URL(`auth/${path}`, client.getBaseUrl());

/** The account calls of the settings screen (server: server/auth/authRoutes.ts, mfaRoutes.ts). */
export const accountApi = {
  async security(client: FhirClient): Promise<SecurityDetails> {
    const me = await client.get<{ security?: Partial<SecurityDetails> }>(authUrl(client, 'me'), { cache: 'no-store' });
    return { mfaEnrolled: me?.security?.mfaEnrolled === true, sessions: me?.security?.sessions ?? [] };
  },
  changePassword(client: FhirClient, oldPassword: string, newPassword: string): Promise<unknown> {
    return client.post(authUrl(client, 'changepassword'), { oldPassword, newPassword }, 'application/json');
  },
  mfaStatus(client: FhirClient): Promise<MfaStatus> {
    return client.get<MfaStatus>(authUrl(client, 'mfa/status'), { cache: 'no-store' });
  },
  enrollMfa(client: FhirClient, token: string): Promise<MfaStatus> {
    return client.post<MfaStatus>(authUrl(client, 'mfa/enroll'), { token }, 'application/json');
  },
  disableMfa(client: FhirClient, token: string): Promise<MfaStatus> {
    return client.post<MfaStatus>(authUrl(client, 'mfa/disable'), { token }, 'application/json');
  },
  revokeSession(client: FhirClient, loginId: string): Promise<unknown> {
    return client.post(authUrl(client, 'revoke'), { loginId }, 'application/json');
  },
};

/** The session this browser is using (its access token names the login), to mark it in the list. */
export function currentSessionId(client: FhirClient): string | undefined {
  const token = client.getAccessToken();
  if (!token) return undefined;
  const loginId = decodeAccessTokenClaims(token)?.login_id;
  return typeof loginId === 'string' ? loginId : undefined;
}
