import { inject } from 'vitest';

/** A bare HTTP helper for integration tests: the real server, real requests, no client library magic. */
export interface HttpAnswer<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export function baseUrl(): string {
  return inject('baseUrl');
}

export async function http<T = Record<string, unknown>>(
  method: string,
  path: string,
  options: {
    body?: unknown;
    headers?: Record<string, string>;
    rawBody?: string;
    /** Bearer token; the super admin's by default, `null` for none. */
    token?: string | null;
  } = {},
): Promise<HttpAnswer<T>> {
  const token = options.token === undefined ? inject('adminToken') : options.token;
  const headers: Record<string, string> = {
    accept: 'application/fhir+json',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...options.headers,
  };
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/fhir+json';
  }
  const response = await fetch(new URL(path, baseUrl()), { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: the test sees the text.
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}

/** The first issue's text of an OperationOutcome body. */
export function issueText(body: unknown): string | undefined {
  const outcome = body as { issue?: { details?: { text?: string }; diagnostics?: string }[] };
  return outcome.issue?.[0]?.details?.text ?? outcome.issue?.[0]?.diagnostics;
}

export function issueExpressions(body: unknown): string[] {
  const outcome = body as { issue?: { expression?: string[] }[] };
  return (outcome.issue ?? []).flatMap((issue) => issue.expression ?? []);
}
