import { describe, expect, it } from 'vitest';
import {
  FHIRCAST_CHANNEL_TYPE,
  FHIRCAST_MODES,
  validateChannelType,
  validateEndpoint,
  validateEvents,
  validateMode,
  validateSubscriptionRequest,
  validateTopic,
} from './fhircastSubscriptionRules';

describe('validateTopic', () => {
  it('accepts a non-empty string only', () => {
    expect(validateTopic('abc-123')).toBeUndefined();
    for (const topic of ['', '   ', undefined, 3, ['a']]) {
      expect(validateTopic(topic), String(topic)).toBe('FHIRcast topic must be a non-empty string');
    }
  });
});

describe('validateEvents', () => {
  it('accepts a non-empty array of known events, in any case', () => {
    expect(validateEvents(['Patient-open', 'patient-close', 'heartbeat'])).toBeUndefined();
  });
  it('rejects an empty or missing list', () => {
    expect(validateEvents([])).toBe('FHIRcast events must be a non-empty array of event names');
    expect(validateEvents('Patient-open')).toBe('FHIRcast events must be a non-empty array of event names');
    expect(validateEvents(undefined)).toBe('FHIRcast events must be a non-empty array of event names');
  });
  it('names every unknown event', () => {
    expect(validateEvents(['Patient-open', 'Chart-open', 'x'])).toBe('Unknown FHIRcast event: Chart-open, x');
  });
});

describe('validateChannelType', () => {
  it('accepts websocket only', () => {
    expect(FHIRCAST_CHANNEL_TYPE).toBe('websocket');
    expect(validateChannelType('websocket')).toBeUndefined();
    expect(validateChannelType('webhook')).toBe(
      "Unsupported FHIRcast channel type 'webhook': only websocket is supported",
    );
  });
});

describe('validateMode', () => {
  it('accepts subscribe and unsubscribe only', () => {
    expect(FHIRCAST_MODES).toEqual(['subscribe', 'unsubscribe']);
    expect(validateMode('subscribe')).toBeUndefined();
    expect(validateMode('unsubscribe')).toBeUndefined();
    expect(validateMode('publish')).toBe("Invalid hub.mode 'publish': must be subscribe or unsubscribe");
  });
});

describe('validateEndpoint', () => {
  it('accepts ws:// and wss:// URLs only', () => {
    expect(validateEndpoint('ws://localhost:8103/ws/fhircast/abc')).toBeUndefined();
    expect(validateEndpoint('wss://emr.example.org/ws/fhircast/abc')).toBeUndefined();
    for (const endpoint of ['http://x/ws', 'ws://', 'wsx://a', '', undefined]) {
      expect(validateEndpoint(endpoint), String(endpoint)).toMatch(
        /^Invalid FHIRcast endpoint .*must be a ws:\/\/ or wss:\/\/ URL$/,
      );
    }
  });
});

describe('validateSubscriptionRequest', () => {
  const subscribe = { channelType: 'websocket', mode: 'subscribe', topic: 't', events: ['Patient-open'] };

  it('accepts a subscribe without an endpoint', () => {
    expect(validateSubscriptionRequest(subscribe)).toBeUndefined();
  });
  it('needs a websocket endpoint to unsubscribe', () => {
    expect(validateSubscriptionRequest({ ...subscribe, mode: 'unsubscribe' })).toBe(
      "Invalid FHIRcast endpoint 'undefined': must be a ws:// or wss:// URL",
    );
    expect(
      validateSubscriptionRequest({ ...subscribe, mode: 'unsubscribe', endpoint: 'wss://hub/abc' }),
    ).toBeUndefined();
  });
  it('checks an endpoint given with a subscribe', () => {
    expect(validateSubscriptionRequest({ ...subscribe, endpoint: 'https://hub' })).toMatch(
      /^Invalid FHIRcast endpoint/,
    );
  });
  it('reports the first wrong field', () => {
    expect(validateSubscriptionRequest({ ...subscribe, channelType: 'rest-hook', topic: '' })).toMatch(/channel type/);
    expect(validateSubscriptionRequest({ ...subscribe, mode: 'x' })).toMatch(/hub.mode/);
    expect(validateSubscriptionRequest({ ...subscribe, topic: '' })).toMatch(/topic/);
    expect(validateSubscriptionRequest({ ...subscribe, events: [] })).toMatch(/events/);
  });
});
