import type { FastifyInstance } from 'fastify';
import type { AuthEnvironment } from './authEnvironment';

const tokenExchangeGrant = 'urn:ietf:params:oauth:grant-type:token-exchange';
const jwtBearerGrant = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** Where a client finds each OAuth2 endpoint of a server whose BASE_URL is `base`. */
export function oauthEndpoints(base: string) {
  return {
    issuer: base,
    authorize: `${base}oauth2/authorize`,
    token: `${base}oauth2/token`,
    introspect: `${base}oauth2/introspect`,
    revoke: `${base}oauth2/revoke`,
    userinfo: `${base}oauth2/userinfo`,
    logout: `${base}oauth2/logout`,
    jwks: `${base}.well-known/jwks.json`,
  };
}

/** OpenID Connect discovery (also served under the FHIR base, where SMART apps look). */
export function openIdConfiguration(base: string) {
  const endpoints = oauthEndpoints(base);
  return {
    issuer: endpoints.issuer,
    authorization_endpoint: endpoints.authorize,
    token_endpoint: endpoints.token,
    userinfo_endpoint: endpoints.userinfo,
    end_session_endpoint: endpoints.logout,
    introspection_endpoint: endpoints.introspect,
    revocation_endpoint: endpoints.revoke,
    jwks_uri: endpoints.jwks,
    response_types_supported: ['code'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['ES256'],
    scopes_supported: ['openid', 'profile', 'email', 'offline_access', 'fhirUser'],
    grant_types_supported: [
      'authorization_code',
      'refresh_token',
      'client_credentials',
      tokenExchangeGrant,
      jwtBearerGrant,
    ],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'],
    code_challenge_methods_supported: ['S256'],
  };
}

/**
 * The resource scopes a SMART app may ask for, as wildcards: v1 (`read`, `write`, `*`) and v2
 * (`cruds` letters, `rs`…) in each context. `patient/` is the launch patient's compartment,
 * `user/` the person's access policy, `system/` a client acting as itself; a scope only ever
 * narrows the policy (data-provider/access/smartScopes.ts, server/auth/accessGuard.ts).
 */
const resourceScopeExamples = ['patient', 'user', 'system'].flatMap((context) =>
  ['read', 'write', '*', 'cruds', 'rs'].map((permission) => `${context}/*.${permission}`),
);

/**
 * SMART App Launch 2.0 configuration. Every claim is one the server honours (each checked against
 * the code; tests in docs/interoperability.md and server/auth/smartDiscovery.test.ts):
 * - grants: the token endpoint's five (authorization code, refresh, client credentials, token
 *   exchange RFC 8693 with the client's identity provider, jwt-bearer RFC 7523 with its jwksUri);
 * - `permission-v1` / `permission-v2`: both scope syntaxes parse and narrow access; `permission-patient`
 *   (held to the launch patient) and `permission-user`; `permission-offline`: refresh tokens;
 * - not claimed: `authorize-post` (GET only), `context-banner` / `context-style` (no
 *   `need_patient_banner` / `smart_style_url`), `context-standalone-encounter`, `permission-online`.
 */
export function smartConfiguration(base: string) {
  const endpoints = oauthEndpoints(base);
  return {
    issuer: endpoints.issuer,
    authorization_endpoint: endpoints.authorize,
    token_endpoint: endpoints.token,
    introspection_endpoint: endpoints.introspect,
    revocation_endpoint: endpoints.revoke,
    userinfo_endpoint: endpoints.userinfo,
    jwks_uri: endpoints.jwks,
    grant_types_supported: [
      'authorization_code',
      'refresh_token',
      'client_credentials',
      tokenExchangeGrant,
      jwtBearerGrant,
    ],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: ['RS256', 'RS384', 'ES256', 'ES384'],
    scopes_supported: [
      'openid',
      'fhirUser',
      'profile',
      'email',
      'launch',
      'launch/patient',
      'offline_access',
      ...resourceScopeExamples,
    ],
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
    capabilities: [
      'launch-standalone',
      'launch-ehr',
      'client-public',
      'client-confidential-symmetric',
      'client-confidential-asymmetric',
      'sso-openid-connect',
      'context-standalone-patient',
      'context-ehr-patient',
      'context-ehr-encounter',
      'permission-offline',
      'permission-patient',
      'permission-user',
      'permission-v1',
      'permission-v2',
    ],
  };
}

/**
 * Discovery documents: at the server root (OpenID Connect) and under the FHIR base, where SMART
 * apps look (`{iss}/.well-known/smart-configuration`). Public: a client reads them before it has a
 * token (the FHIR auth hook in app.ts lets `/fhir/R4/.well-known/` through).
 */
export async function smartDiscoveryRoutes(app: FastifyInstance, env: AuthEnvironment): Promise<void> {
  const base = env.config.baseUrl;
  const openId = () => openIdConfiguration(base);
  const smart = () => smartConfiguration(base);
  app.get('/.well-known/openid-configuration', openId);
  app.get('/.well-known/smart-configuration', smart);
  app.get('/fhir/R4/.well-known/openid-configuration', openId);
  app.get('/fhir/R4/.well-known/smart-configuration', smart);
}
