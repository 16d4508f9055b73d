import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFhircastEventEnvelope, parseSubscriptionRequestForm, subscriptionRequestForm } from './fhircastMessages';

afterEach(() => {
  vi.useRealTimers();
});

const context = [{ key: 'patient', resource: { resourceType: 'Patient' as const, id: 'p1' } }];

describe('createFhircastEventEnvelope', () => {
  it('stamps the event with the time and a fresh v4 UUID', () => {
    vi.useFakeTimers({ now: new Date('2024-05-01T10:00:00Z') });
    const first = createFhircastEventEnvelope('topic-1', 'Patient-open', context);
    const second = createFhircastEventEnvelope('topic-1', 'Patient-open', context);
    expect(first).toEqual({
      timestamp: '2024-05-01T10:00:00.000Z',
      id: first.id,
      event: { 'hub.topic': 'topic-1', 'hub.event': 'Patient-open', context },
    });
    expect(first.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(second.id).not.toBe(first.id);
    expect('context.versionId' in first.event).toBe(false);
  });
  it('carries the version id when given', () => {
    expect(createFhircastEventEnvelope('t', 'DiagnosticReport-update', [], 'v7').event['context.versionId']).toBe('v7');
  });
});

describe('subscription request form', () => {
  it('encodes the hub fields, events comma-joined', () => {
    const form = subscriptionRequestForm({
      channelType: 'websocket',
      mode: 'subscribe',
      topic: 'a b',
      events: ['Patient-open', 'Patient-close'],
    });
    expect(form.toString()).toBe(
      'hub.channel.type=websocket&hub.mode=subscribe&hub.topic=a+b&hub.events=Patient-open%2CPatient-close',
    );
  });
  it('adds the endpoint when there is one, and reads back what it wrote', () => {
    const request = {
      channelType: 'websocket',
      mode: 'unsubscribe',
      topic: 't',
      events: ['Patient-open'],
      endpoint: 'wss://hub/x',
    };
    const form = subscriptionRequestForm(request);
    expect(form.get('hub.channel.endpoint')).toBe('wss://hub/x');
    expect(parseSubscriptionRequestForm(form)).toEqual(request);
  });
  it('reads missing fields as empty, for the validator to report', () => {
    expect(parseSubscriptionRequestForm(new URLSearchParams('hub.events=Patient-open, Patient-close'))).toEqual({
      channelType: '',
      mode: '',
      topic: '',
      events: ['Patient-open', 'Patient-close'],
    });
  });
});
