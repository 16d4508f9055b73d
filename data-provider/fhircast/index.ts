// Public surface of the FHIRcast hub client and of the hub rules the server shares (spec §5, §7).
export {
  FHIRCAST_HUB_PATH,
  FhircastClient,
  FhircastHubError,
  type FhircastFetch,
  type FhircastFetchResponse,
  type FhircastClientOptions,
} from './fhircastClient';
export { validateContext } from './fhircastContextRules';
export {
  canonicalFhircastEventName,
  FHIRCAST_EVENT_CONTEXTS,
  FHIRCAST_EVENT_NAMES,
  FHIRCAST_EVENTS_NEEDING_VERSION_ID,
  type FhircastContextKeyRule,
  type FhircastEventName,
} from './fhircastEvents';
export {
  createFhircastEventEnvelope,
  parseSubscriptionRequestForm,
  subscriptionRequestForm,
  type FhircastContextEntry,
  type FhircastContextResource,
  type FhircastCurrentContext,
  type FhircastEventEnvelope,
  type FhircastSubscriptionRequest,
} from './fhircastMessages';
export {
  FHIRCAST_CHANNEL_TYPE,
  FHIRCAST_MODES,
  validateChannelType,
  validateEndpoint,
  validateEvents,
  validateMode,
  validateSubscriptionRequest,
  validateTopic,
} from './fhircastSubscriptionRules';
