import type { ServerConfig } from '../../config/serverConfig';
import type { EmailSender } from '../email/emailSender';
import type { Repository } from '../fhir/repository';
import type { SearchParameterRegistry } from '../search/searchParameterRegistry';
import type { SigningKeys } from './signingKeys';
import type { CallerCache } from './callerCache';

/** What the auth routes share: storage, keys and the settings that shape sign-in. */
export interface AuthEnvironment {
  repository: Repository;
  registry: SearchParameterRegistry;
  keys: SigningKeys;
  config: Pick<
    ServerConfig,
    | 'baseUrl'
    | 'registration'
    | 'googleClientId'
    | 'googleJwksUrl'
    | 'emailProjectHourlyLimit'
    // Also the exceptions to the outbound address rule for URLs a project stored (server/net/outboundAddress.ts).
    | 'botFetchAllowedHosts'
  >;
  /** The shared definitions project (readable by everyone). */
  sharedProjectId: string;
  /** The server's one e-mail sender (SMTP, or the DATA_DIR outbox). */
  email: EmailSender;
  /** Resolved callers by token, invalidated on every process by access-defining writes (callerCache.ts). */
  callers?: CallerCache;
}

/** Where accounts and sign-in records live that belong to no clinic project yet. */
export const accountsProjectId = 'accounts';

/** The audience of tokens issued to the web app and other callers that name no ClientApplication. */
export const defaultClientId = 'hearth-emr-app';

export const accessTokenSeconds = 60 * 60;
export const refreshTokenSeconds = 14 * 24 * 60 * 60;
/** How long a sign-in without "Remember me" can be kept alive by refreshing. */
export const sessionSecondsWithoutRemember = 24 * 60 * 60;
/** An authorization code must be exchanged this soon after sign-in. */
export const codeLifetimeMs = 10 * 60_000;
