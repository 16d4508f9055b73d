// Public surface of the realtime subscription client (spec §4 'Subscription', §7 'Websocket', §9).
export { ReconnectingWebSocket, type ReconnectingWebSocketEvents } from './reconnectingWebSocket';
export {
  bindingTokenPath,
  readBindingToken,
  websocketSubscription,
  type BindingToken,
  type SubscriptionBackend,
} from './subscriptionBackend';
export {
  SubscriptionManager,
  type SubscriptionListener,
  type SubscriptionManagerEvents,
  type SubscriptionManagerOptions,
  type SubscriptionNotification,
} from './subscriptionManager';
export {
  bindWithTokenMessage,
  parseSubscriptionMessage,
  PING_MESSAGE,
  unbindFromTokenMessage,
  type SubscriptionMessage,
} from './subscriptionMessage';
export { TypedEventEmitter } from './typedEventEmitter';
export { globalWebSocket, WEBSOCKET_OPEN, type WebSocketConstructor, type WebSocketLike } from './webSocketLike';
export {
  CONNECTION_TIMEOUT_MS,
  MAX_RECONNECT_DELAY_MS,
  MIN_RECONNECT_DELAY_LOWER_MS,
  MIN_RECONNECT_DELAY_UPPER_MS,
  MIN_UPTIME_MS,
  PING_INTERVAL_MS,
  RECONNECT_DELAY_GROWTH,
  SUBSCRIPTIONS_WEBSOCKET_PATH,
  UNSUBSCRIBE_DELAY_MS,
} from './websocketConstants';
