import type { OperationOutcome } from '@medplum/fhirtypes';

import { validateContext } from './fhircastContextRules';
import { canonicalFhircastEventName } from './fhircastEvents';
import {
  createFhircastEventEnvelope,
  subscriptionRequestForm,
  type FhircastContextEntry,
  type FhircastCurrentContext,
  type FhircastEventEnvelope,
  type FhircastSubscriptionRequest,
} from './fhircastMessages';
import { FHIRCAST_CHANNEL_TYPE, validateSubscriptionRequest, validateTopic } from './fhircastSubscriptionRules';

/** Where the hub lives below the server's base URL (ARCHITECTURE.md: realtime). */
export const FHIRCAST_HUB_PATH = 'fhircast/STU3';

/** The part of a fetch Response the client reads. */
export interface FhircastFetchResponse {
  ok: boolean;
  status: number;
  json(): Promise<unknown>;
}

export type FhircastFetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<FhircastFetchResponse>;

export interface FhircastClientOptions {
  /** The server's base URL; must start with http. */
  baseUrl: string;
  /** Defaults to the global fetch. */
  fetch?: FhircastFetch;
  /** Defaults to FHIRCAST_HUB_PATH; an absolute URL points at another hub. */
  hubPath?: string;
  /** Bearer token for each call, when the hub needs one (ours does). */
  getAccessToken?: () => string | undefined | Promise<string | undefined>;
}

/** The hub answered with an error status; `outcome` holds its OperationOutcome when it sent one. */
export class FhircastHubError extends Error {
  constructor(
    readonly status: number,
    readonly outcome: OperationOutcome | undefined,
  ) {
    const texts = (outcome?.issue ?? []).map((issue) => issue.details?.text ?? issue.diagnostics).filter(Boolean);
    super(`FHIRcast hub answered ${status}${texts.length > 0 ? `: ${texts.join('; ')}` : ''}`);
    this.name = 'FhircastHubError';
  }
}

/**
 * Client of a FHIRcast hub (spec §5 'Client rules', §7 'Hub'): subscribe and unsubscribe to a
 * topic's events, publish events, read a topic's current context. Every request is validated
 * before it leaves, so a mistake is reported with what is wrong rather than as a bare 400.
 */
export class FhircastClient {
  private readonly hubUrl: string;
  private readonly fetchImpl: FhircastFetch;
  private readonly getAccessToken: FhircastClientOptions['getAccessToken'];

  constructor(options: FhircastClientOptions) {
    if (!/^https?:\/\//i.test(options.baseUrl)) throw new Error('Not a valid URL');
    const base = options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`;
    this.hubUrl = new URL(options.hubPath ?? FHIRCAST_HUB_PATH, base).toString().replace(/\/$/, '');
    // Bound, because browsers refuse a fetch called on anything but the window.
    const fetchImpl =
      options.fetch ?? (typeof globalThis.fetch === 'function' ? globalThis.fetch.bind(globalThis) : undefined);
    if (!fetchImpl) throw new Error('No fetch implementation: pass options.fetch');
    this.fetchImpl = fetchImpl;
    this.getAccessToken = options.getAccessToken;
  }

  /** Subscribes to `events` of `topic` over a websocket; answers the websocket endpoint the hub gives. */
  async subscribe(topic: string, events: string[]): Promise<string> {
    const request = { channelType: FHIRCAST_CHANNEL_TYPE, mode: 'subscribe', topic, events: this.canonical(events) };
    const answer = await this.postForm(request);
    const endpoint = (answer as Record<string, unknown> | undefined)?.['hub.channel.endpoint'];
    if (typeof endpoint !== 'string' || !endpoint) throw new Error('Invalid response!');
    return endpoint;
  }

  /** Ends the subscription that `subscribe` opened at `endpoint`. */
  async unsubscribe(subscription: { topic: string; events: string[]; endpoint: string }): Promise<void> {
    await this.postForm({
      channelType: FHIRCAST_CHANNEL_TYPE,
      mode: 'unsubscribe',
      topic: subscription.topic,
      events: this.canonical(subscription.events),
      endpoint: subscription.endpoint,
    });
  }

  /** Publishes one event to a topic; answers the envelope sent (its id identifies the event). */
  async publish(
    topic: string,
    event: string,
    context: FhircastContextEntry[],
    versionId?: string,
  ): Promise<FhircastEventEnvelope> {
    const problem = validateTopic(topic) ?? validateContext(event, context, versionId);
    const eventName = canonicalFhircastEventName(event);
    if (problem || !eventName) throw new Error(problem ?? `Unknown FHIRcast event: ${event}`);
    const envelope = createFhircastEventEnvelope(topic, eventName, context, versionId);
    await this.request(this.topicUrl(topic), 'POST', 'application/json', JSON.stringify(envelope));
    return envelope;
  }

  /** The topic's current context (empty when nothing is open). */
  async getCurrentContext(topic: string): Promise<FhircastCurrentContext> {
    const problem = validateTopic(topic);
    if (problem) throw new Error(problem);
    const answer = await this.request(this.topicUrl(topic), 'GET');
    if (typeof answer !== 'object' || answer === null || !Array.isArray((answer as { context?: unknown }).context)) {
      throw new Error('Invalid response!');
    }
    return answer as FhircastCurrentContext;
  }

  private async postForm(request: FhircastSubscriptionRequest): Promise<unknown> {
    const problem = validateSubscriptionRequest(request);
    if (problem) throw new Error(problem);
    return this.request(
      this.hubUrl,
      'POST',
      'application/x-www-form-urlencoded',
      subscriptionRequestForm(request).toString(),
    );
  }

  private async request(url: string, method: string, contentType?: string, body?: string): Promise<unknown> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (contentType) headers['Content-Type'] = contentType;
    const token = await this.getAccessToken?.();
    if (token) headers.Authorization = `Bearer ${token}`;
    const response = await this.fetchImpl(url, { method, headers, ...(body === undefined ? {} : { body }) });
    const answer = await response.json().catch(() => undefined);
    if (!response.ok) {
      const outcome =
        (answer as OperationOutcome | undefined)?.resourceType === 'OperationOutcome' ? answer : undefined;
      throw new FhircastHubError(response.status, outcome as OperationOutcome | undefined);
    }
    return answer;
  }

  private topicUrl(topic: string): string {
    return `${this.hubUrl}/${encodeURIComponent(topic)}`;
  }

  /** Known names in the catalogue's spelling; unknown ones are kept for the validator to name. */
  private canonical(events: string[]): string[] {
    return Array.isArray(events) ? events.map((event) => canonicalFhircastEventName(event) ?? event) : events;
  }
}
