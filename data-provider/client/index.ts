// Public surface of the FHIR client (data-and-client-layer-spec.md §4, §7–§9).
export {
  FhirClient,
  type BinarySource,
  type BinaryUpload,
  type CreatePdfFunction,
  type CreatePdfRequest,
  type EmailMessage,
  type FhirClientOptions,
  type GraphQLResponse,
  type InviteRequest,
  type MediaUpload,
  type PatchOperation,
  type RequestOptions,
  type ResourceArray,
  type SubscriptionBindingToken,
  type ValueSetExpandParams,
} from './fhirClient';
export * from './clientDefaults';
export type {
  AuthMethodRequest,
  AuthMethodResponse,
  ExternalAuthRequest,
  GoogleLoginRequest,
  ClientInfo,
  ContinueSignInRequest,
  LaunchAvailability,
  LaunchPatientOption,
  LoginRequest,
  LoginResponse,
  LoginState,
  LoginStatus,
  NewPatientRequest,
  NewProjectRequest,
  NewUserRequest,
  ProfileResource,
  RegistrationOptions,
  SessionDetails,
  TokenResponse,
} from './authTypes';
export { type ClientStorage, defaultStorage, isBrowser, MemoryStorage } from './clientStorage';
export { type FetchLike, fetchWithRetry, type RetryPolicy } from './fetchWithRetry';
export { NO_ANSWER_MESSAGE, NoAnswerError } from './noAnswerError';
export { RequestCache, type CacheTags } from './requestCache';
export { RequestBatcher, type RequestBatcherOptions } from './requestBatcher';
export { SharedRequest } from './sharedRequest';
export { LOGIN_STORAGE_KEYS, LoginStore, sameAccount } from './loginStore';
export type { StoredLoginSession } from './storedLoginSessions';
export {
  base64UrlEncode,
  createCodeChallenge,
  createCodeVerifier,
  createRandomString,
  UNRESERVED_ALPHABET,
} from './pkce';
export {
  accessTokenProblem,
  decodeAccessTokenClaims,
  isTokenExpired,
  tokenClientIds,
  tokenExpiresAt,
  type AccessTokenClaims,
} from './accessTokenClaims';
export { parseReference, referenceTo, SYSTEM_DEVICE, SYSTEM_REFERENCE } from './resourceReference';
export {
  errorFromResponse,
  isJsonContentType,
  outcomeForStatus,
  readResponseBody,
  type ResponseType,
} from './responseBody';
export { type FileAddress, type FileAddressKind, queryString, type SearchQuery, ServerUrls } from './serverUrls';
export { type UploadProgress } from './xhrUploadFetch';
export { abortableDelay, isAbortError } from './abortableDelay';
export { RESOURCE_WRITE_EVENT, ResourceWriteEvent } from './resourceWriteEvent';
export { SIGN_OUT_EVENT, SignOutEvent } from './signOutEvent';
