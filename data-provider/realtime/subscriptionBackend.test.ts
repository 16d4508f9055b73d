import { describe, expect, it } from 'vitest';
import { bindingTokenPath, readBindingToken, websocketSubscription } from './subscriptionBackend';

describe('websocketSubscription', () => {
  it('is an active websocket Subscription with a reason and the criteria', () => {
    const subscription = websocketSubscription('Communication?recipient=Practitioner/1');
    expect(subscription).toMatchObject({
      resourceType: 'Subscription',
      status: 'active',
      criteria: 'Communication?recipient=Practitioner/1',
      channel: { type: 'websocket' },
    });
    expect(subscription.reason).toContain('Communication?recipient=Practitioner/1');
  });
});

describe('bindingTokenPath', () => {
  it('is the $get-ws-binding-token operation of the subscription', () => {
    expect(bindingTokenPath('abc-1')).toBe('Subscription/abc-1/$get-ws-binding-token');
    expect(bindingTokenPath('a/b')).toBe('Subscription/a%2Fb/$get-ws-binding-token');
  });
});

describe('readBindingToken', () => {
  it('reads the token and websocket-url parameters', () => {
    expect(
      readBindingToken({
        resourceType: 'Parameters',
        parameter: [
          { name: 'token', valueString: 'tok' },
          { name: 'expiration', valueDateTime: '2030-01-01T00:00:00Z' },
          { name: 'websocket-url', valueUrl: 'wss://example.org/ws/subscriptions-r4' },
        ],
      }),
    ).toEqual({ token: 'tok', websocketUrl: 'wss://example.org/ws/subscriptions-r4' });
  });
  it('accepts the URL as a uri or string as well', () => {
    expect(
      readBindingToken({ resourceType: 'Parameters', parameter: [{ name: 'websocket-url', valueString: 'ws://x' }] }),
    ).toEqual({ token: '', websocketUrl: 'ws://x' });
  });
  it('answers empty values when parameters are missing', () => {
    expect(readBindingToken({ resourceType: 'Parameters' })).toEqual({ token: '', websocketUrl: '' });
    expect(readBindingToken(undefined)).toEqual({ token: '', websocketUrl: '' });
  });
});
