import type {
  AccessPolicy,
  Bot,
  ClientApplication,
  Patient,
  Practitioner,
  Project,
  ProjectMembership,
  Reference,
  RelatedPerson,
  User,
  UserConfiguration,
} from '@medplum/fhirtypes';

/** Who a login acts as. */
export type ProfileResource = Patient | Practitioner | RelatedPerson | Bot | ClientApplication;

/** One signed-in account, as kept in storage (spec §3: login record). */
export interface LoginState {
  accessToken: string;
  refreshToken?: string;
  project?: Reference<Project>;
  profile?: Reference<ProfileResource>;
}

/** The answer of `GET auth/me`. */
export interface SessionDetails {
  user?: User;
  profile: ProfileResource;
  project: Project;
  membership: ProjectMembership;
  config?: UserConfiguration;
  accessPolicy?: AccessPolicy;
}

export interface LoginRequest {
  email: string;
  password: string;
  remember?: boolean;
  projectId?: string;
  scope?: string;
  nonce?: string;
  /** A third-party app's client id and PKCE challenge; default: this client's own. */
  clientId?: string;
  /** Where the third-party app gets the code; the server checks that the client registered it. */
  redirectUri?: string;
  codeChallenge?: string;
  codeChallengeMethod?: string;
  /** SMART EHR launch: the `launch` parameter the app was opened with. */
  launch?: string;
}

/**
 * `POST auth/continue`: a third-party app's sign-in taken on from the session this client holds
 * (no password: the session's person, project and profile). Everything the app sent to
 * `/oauth2/authorize`, which the server checks again.
 */
export interface ContinueSignInRequest {
  clientId: string;
  redirectUri: string;
  scope?: string;
  nonce?: string;
  codeChallenge?: string;
  codeChallengeMethod?: string;
  launch?: string;
}

/**
 * The answer of `GET auth/continue/launch/{launch}`: whether the session asking could continue into
 * that EHR launch (only the account that started it can, within 15 minutes, once), and if not why:
 * `unknown` is a launch of none of the session's project (or none at all).
 */
export type LaunchAvailability =
  { usable: true } | { usable: false; reason: 'startedBySomeoneElse' | 'expired' | 'used' | 'unknown' };

/**
 * The answer of the auth/* sign-in steps: a code to exchange for tokens, or the next step (a
 * second factor, or a choice between memberships).
 */
export interface LoginResponse {
  login: string;
  code?: string;
  mfaRequired?: boolean;
  memberships?: ProjectMembership[];
  /** Scopes the user must confirm (a third-party app asked for resource scopes). */
  scopes?: string[];
  /** A clinician's standalone SMART launch: the consent step also asks which patient the app is about. */
  patientChoice?: boolean;
}

/** One answer of `GET auth/login/{login}/patients`: a patient the person may choose for the app. */
export interface LaunchPatientOption {
  id: string;
  name: string;
  birthDate?: string;
  gender?: string;
}

/** The answer of `POST auth/method`: sign in with a password, or at the e-mail domain's identity provider. */
export interface AuthMethodResponse {
  domain?: string;
  method: 'password' | 'external';
  /** The identity provider's authorize address (carries the server's `state`). */
  authorizeUrl?: string;
}

/** Options of `POST auth/method` for an external sign-in; PKCE values default to a fresh pair of this client. */
export interface AuthMethodRequest {
  email: string;
  /** Where the server sends the browser back with `login` (and `code`) after the identity provider. */
  redirectUri?: string;
  projectId?: string;
  clientId?: string;
  /** A third-party app's own redirect_uri (checked by the server against the app's registration). */
  clientRedirectUri?: string;
  /** The scope a third-party app asked for, carried through the identity provider into the login. */
  scope?: string;
  codeChallenge?: string;
  codeChallengeMethod?: string;
}

/** The answer of `GET auth/login/{login}`: where a sign-in in progress stands. */
export interface LoginStatus {
  id: string;
  email?: string;
  mfaRequired: boolean;
  membership?: Reference<ProjectMembership>;
  memberships: ProjectMembership[];
  client?: Reference;
  scope?: string;
}

/** The answer of `GET auth/clientinfo/{clientId}`: what a sign-in page may show of a third-party app. */
export interface ClientInfo {
  id: string;
  name: string | null;
}

/** The answer of `GET auth/registration`: whether self-registration and Google sign-in are offered. */
export interface RegistrationOptions {
  registration: 'open' | 'closed';
  googleClientId: string | null;
}

export interface NewUserRequest {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  remember?: boolean;
  projectId?: string;
  recaptchaToken?: string;
  recaptchaSiteKey?: string;
}

export interface NewProjectRequest {
  login: string;
  projectName: string;
}

export interface NewPatientRequest {
  login: string;
  projectId: string;
}

export interface GoogleLoginRequest {
  googleClientId: string;
  googleCredential: string;
  projectId?: string;
  createUser?: boolean;
  scope?: string;
}

/** What an external identity provider's authorize request must carry. */
export interface ExternalAuthRequest {
  codeChallenge?: string;
  codeChallengeMethod?: string;
  scope?: string;
  nonce?: string;
  projectId?: string;
}

/** The OAuth2 token endpoint's answer. */
export interface TokenResponse {
  token_type?: string;
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  expires_in?: number;
  scope?: string;
  project?: Reference<Project>;
  profile?: Reference<ProfileResource>;
}
