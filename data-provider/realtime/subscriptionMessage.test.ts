import type { Bundle } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import {
  bindWithTokenMessage,
  parseSubscriptionMessage,
  PING_MESSAGE,
  unbindFromTokenMessage,
} from './subscriptionMessage';

function statusBundle(type: string | undefined, reference: string | undefined, resource?: object): Bundle {
  return {
    resourceType: 'Bundle',
    type: 'history',
    entry: [
      {
        resource: {
          resourceType: 'SubscriptionStatus',
          status: 'active',
          type: type as 'event-notification',
          subscription: { reference },
        },
      },
      ...(resource ? [{ resource: resource as Bundle }] : []),
    ],
  };
}

describe('client messages', () => {
  it('are the protocol JSON', () => {
    expect(JSON.parse(bindWithTokenMessage('t1'))).toEqual({ type: 'bind-with-token', payload: { token: 't1' } });
    expect(JSON.parse(unbindFromTokenMessage('t1'))).toEqual({ type: 'unbind-from-token', payload: { token: 't1' } });
    expect(JSON.parse(PING_MESSAGE)).toEqual({ type: 'ping' });
  });
});

describe('parseSubscriptionMessage', () => {
  it('reads a notification with its subscription id and resource', () => {
    const patient = { resourceType: 'Patient', id: 'p1' };
    const bundle = statusBundle('event-notification', 'Subscription/s1', patient);
    expect(parseSubscriptionMessage(JSON.stringify(bundle))).toEqual({
      kind: 'notification',
      subscriptionId: 's1',
      bundle,
      resource: patient,
    });
  });
  it('reads a notification without a type or resource, and with an absolute reference', () => {
    const message = parseSubscriptionMessage(
      JSON.stringify(statusBundle(undefined, 'https://example.org/fhir/R4/Subscription/s2')),
    );
    expect(message).toMatchObject({ kind: 'notification', subscriptionId: 's2', resource: undefined });
  });
  it('tells handshakes and heartbeats from notifications', () => {
    expect(parseSubscriptionMessage(JSON.stringify(statusBundle('handshake', 'Subscription/s1')))).toEqual({
      kind: 'handshake',
      subscriptionId: 's1',
    });
    expect(parseSubscriptionMessage(JSON.stringify(statusBundle('heartbeat', 'Subscription/s1')))).toEqual({
      kind: 'heartbeat',
      subscriptionId: 's1',
    });
    expect(parseSubscriptionMessage('{"type":"heartbeat"}')).toEqual({ kind: 'heartbeat', subscriptionId: undefined });
  });
  it('reads pong', () => {
    expect(parseSubscriptionMessage('{"type":"pong"}')).toEqual({ kind: 'pong' });
  });
  it('turns server errors into errors with the outcome text', () => {
    const message = parseSubscriptionMessage(
      JSON.stringify({
        type: 'error',
        payload: {
          resourceType: 'OperationOutcome',
          issue: [{ severity: 'error', code: 'invalid', details: { text: 'Token expired' } }],
        },
      }),
    );
    expect(message.kind).toBe('error');
    expect(message.kind === 'error' && message.error.message).toBe('Subscription server error: Token expired');
  });
  it('reports what is not JSON and a notification that names no subscription', () => {
    const notJson = parseSubscriptionMessage('<html>');
    expect(notJson.kind === 'error' && notJson.error.message).toBe('Subscription message is not JSON: <html>');
    const anonymous = parseSubscriptionMessage(JSON.stringify(statusBundle('event-notification', 'Patient/1')));
    expect(anonymous.kind === 'error' && anonymous.error.message).toBe(
      'Subscription notification names no subscription',
    );
  });
  it('ignores other JSON', () => {
    for (const data of [
      '[]',
      '42',
      'null',
      '{"type":"news"}',
      '{"resourceType":"Patient"}',
      '{"resourceType":"Bundle"}',
    ]) {
      expect(parseSubscriptionMessage(data), data).toEqual({ kind: 'ignored' });
    }
    expect(parseSubscriptionMessage(JSON.stringify(statusBundle('query-status', 'Subscription/s1')))).toEqual({
      kind: 'ignored',
    });
  });
});
