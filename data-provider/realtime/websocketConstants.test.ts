import { describe, expect, it } from 'vitest';
import * as constants from './websocketConstants';

describe('websocket constants', () => {
  it('are those of spec §9', () => {
    expect({ ...constants }).toEqual({
      SUBSCRIPTIONS_WEBSOCKET_PATH: '/ws/subscriptions-r4',
      PING_INTERVAL_MS: 5000,
      RECONNECT_DELAY_GROWTH: 1.3,
      MIN_RECONNECT_DELAY_LOWER_MS: 1000,
      MIN_RECONNECT_DELAY_UPPER_MS: 5000,
      MAX_RECONNECT_DELAY_MS: 10000,
      CONNECTION_TIMEOUT_MS: 4000,
      MIN_UPTIME_MS: 5000,
      UNSUBSCRIBE_DELAY_MS: 3000,
    });
  });
});
