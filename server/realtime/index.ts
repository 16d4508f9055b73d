export { matchesCriteria, matchesWrite, parseCriteria, evaluateCriteria, contentOfWrite } from './criteriaMatcher';
export type { ParsedCriteria, CriteriaCheck } from './criteriaMatcher';
export {
  realtimeRoutes,
  defaultHeartbeatMs,
  realtimeStatsOf,
  subscriptionHubOf,
  subscriptionsWebsocketUrl,
} from './realtimeRoutes';
export { addWebsocketRoute, type WebsocketRoute } from './websocketUpgrade';
export { acquireClusterBus } from './sharedClusterBus';
export type { ClusterBus } from './clusterBus';
export { SubscriberDirectory, type Subscriber } from './subscriberAccess';
export { watchAccessChanges } from './subscriptionHub';
export {
  leaseEndedCode,
  noSuchEndpointCode,
  policyViolationCode,
  signInEndedCode,
  unboundIdleCode,
} from './socketCloseCodes';
export { sendWithinBacklog } from './socketBackpressure';
export { defaultRealtimeLimits, type RealtimeLimits } from './realtimeLimits';
