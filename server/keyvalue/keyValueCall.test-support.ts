import { baseUrl } from '../../tests/integration/fhirClient';

/** One call of `/keyvalue/v1/{key}` on the shared test server, as `token` (none: anonymous). */
export async function keyValueCall(
  method: string,
  key: string,
  token: string | null,
  body?: string,
  type = 'text/plain',
): Promise<{ status: number; text: string; type: string }> {
  const response = await fetch(new URL(`keyvalue/v1/${encodeURIComponent(key)}`, baseUrl()), {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': type } : {}),
    },
    body,
  });
  const text = await response.text();
  return { status: response.status, text, type: response.headers.get('content-type') ?? '' };
}
