import type { FetchLike } from './fetchWithRetry';

export interface UploadProgress {
  loaded: number;
  total: number;
  lengthComputable: boolean;
}

function parseHeaders(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return headers;
}

export function canReportUploadProgress(): boolean {
  return typeof XMLHttpRequest !== 'undefined';
}

/**
 * A fetch over XMLHttpRequest, because fetch has no upload progress event in browsers. The
 * answer becomes a Response, so retries, sign-in renewal and error handling stay the same.
 */
export function createXhrUploadFetch(onProgress: (progress: UploadProgress) => void): FetchLike {
  return (url, init) =>
    new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(init.method ?? 'GET', url, true);
      new Headers(init.headers).forEach((value, key) => xhr.setRequestHeader(key, value));
      xhr.responseType = 'blob';
      xhr.upload.onprogress = (event) =>
        onProgress({ loaded: event.loaded, total: event.total, lengthComputable: event.lengthComputable });
      xhr.onload = () => {
        const empty = xhr.status === 204 || xhr.status === 304;
        resolve(
          new Response(empty ? null : (xhr.response as Blob), {
            status: xhr.status,
            statusText: xhr.statusText,
            headers: parseHeaders(xhr.getAllResponseHeaders()),
          }),
        );
      };
      xhr.onerror = () => reject(new TypeError('Network request failed'));
      xhr.onabort = () => reject(init.signal?.reason ?? new DOMException('The upload was aborted', 'AbortError'));
      init.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send((init.body ?? null) as XMLHttpRequestBodyInit | null);
    });
}
