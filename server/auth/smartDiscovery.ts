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
 * SMART App Launch 2.0 configuration. Every capability listed is one the server honours and a test
 * exercises (docs/interoperability.md); scopes themselves are enforced by the access layer.
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
    grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: ['RS256', 'RS384', 'ES256', 'ES384'],
    scopes_supported: [
      'openid',
      'fhirUser',
      'profile',
      'launch',
      'launch/patient',
      'offline_access',
      'patient/*.read',
      'user/*.*',
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
      'permission-user',
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
