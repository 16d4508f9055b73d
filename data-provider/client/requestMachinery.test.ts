import type { Bundle } from '@medplum/fhirtypes';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notFound } from '../outcomes/outcomeCatalogue';
import { OperationOutcomeError } from '../outcomes/operationOutcomeError';
import { abortableDelay } from './abortableDelay';
import { MAX_RETRIES, RETRY_DELAY } from './clientDefaults';
import { FakeFetch, jsonResponse, textResponse } from './fakeFetch';
import { fetchWithRetry } from './fetchWithRetry';
import { NoAnswerError } from './noAnswerError';
import { RequestBatcher } from './requestBatcher';
import { RequestCache } from './requestCache';
import { errorFromResponse, readResponseBody } from './responseBody';
import { SharedRequest } from './sharedRequest';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('RequestCache', () => {
  it('expires entries after maxAge', () => {
    const cache = new RequestCache<string>(10, 60_000);
    cache.set('a', 'A');
    vi.advanceTimersByTime(59_999);
    expect(cache.get('a')).toBe('A');
    vi.advanceTimersByTime(1);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('evicts the least recently used entry beyond maxSize', () => {
    const cache = new RequestCache<string>(2, 60_000);
    cache.set('a', 'A');
    cache.set('b', 'B');
    expect(cache.get('a')).toBe('A'); // a is now more recent than b
    cache.set('c', 'C');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('A');
    expect(cache.get('c')).toBe('C');
  });

  it('is disabled with maxAge 0', () => {
    const cache = new RequestCache<string>(10, 0);
    expect(cache.enabled).toBe(false);
    cache.set('a', 'A');
    expect(cache.get('a')).toBeUndefined();
  });

  it('deletes by tags, and deletes a key only if it still holds the given value', () => {
    const cache = new RequestCache<string>(10, 60_000);
    cache.set('p1', 'P', { resourceType: 'Patient' });
    cache.set('ps', 'S', { resourceType: 'Patient', search: true });
    cache.set('o1', 'O', { resourceType: 'Observation' });
    cache.deleteWhere((tags) => tags.resourceType === 'Patient' && tags.search === true);
    expect(cache.get('ps')).toBeUndefined();
    expect(cache.get('p1')).toBe('P');
    cache.delete('o1', 'other');
    expect(cache.get('o1')).toBe('O');
    cache.delete('o1', 'O');
    expect(cache.get('o1')).toBeUndefined();
  });
});

describe('SharedRequest', () => {
  it('does not abort the request when only one of two waiters aborts', async () => {
    let seen: AbortSignal | undefined;
    let finish!: (value: string) => void;
    const shared = new SharedRequest<string>((signal) => {
      seen = signal;
      return new Promise((resolve) => (finish = resolve));
    });
    const first = new AbortController();
    const second = new AbortController();
    const a = shared.join(first.signal);
    const b = shared.join(second.signal);
    first.abort(new DOMException('gone', 'AbortError'));
    await expect(a).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen?.aborted).toBe(false);
    finish('answer');
    await expect(b).resolves.toBe('answer');
    expect(shared.value).toBe('answer');
  });

  it('aborts the request when every waiter has aborted', async () => {
    let seen: AbortSignal | undefined;
    const shared = new SharedRequest<string>((signal) => {
      seen = signal;
      return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    });
    const controller = new AbortController();
    const waiting = shared.join(controller.signal);
    controller.abort();
    await expect(waiting).rejects.toBeDefined();
    expect(seen?.aborted).toBe(true);
  });

  it('a waiter without a signal keeps the request alive', async () => {
    let seen: AbortSignal | undefined;
    const shared = new SharedRequest<string>((signal) => {
      seen = signal;
      return new Promise(() => {});
    });
    void shared.join();
    const controller = new AbortController();
    const waiting = shared.join(controller.signal);
    controller.abort();
    await expect(waiting).rejects.toBeDefined();
    expect(seen?.aborted).toBe(false);
  });
});

describe('fetchWithRetry', () => {
  const policy = { maxRetries: MAX_RETRIES, retryDelay: RETRY_DELAY };

  it('retries a 5xx answer 200 ms later and returns the success', async () => {
    const fake = new FakeFetch().once('GET', '/x', textResponse('busy', 503)).on('GET', '/x', jsonResponse({ ok: 1 }));
    const result = fetchWithRetry(fake.fetch, 'http://s/x', { method: 'GET' }, policy);
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(199);
    expect(fake.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect((await result).status).toBe(200);
    expect(fake.calls).toHaveLength(2);
  });

  it('gives up after 2 extra tries and returns the last 5xx answer', async () => {
    const fake = new FakeFetch().on('GET', '/x', () => textResponse('down', 500));
    const result = fetchWithRetry(fake.fetch, 'http://s/x', { method: 'GET' }, policy);
    await vi.advanceTimersByTimeAsync(1000);
    expect((await result).status).toBe(500);
    expect(fake.calls).toHaveLength(3);
  });

  it('does not retry 4xx answers', async () => {
    const fake = new FakeFetch().on('GET', '/x', () => textResponse('no', 400));
    expect((await fetchWithRetry(fake.fetch, 'http://s/x', { method: 'GET' }, policy)).status).toBe(400);
    expect(fake.calls).toHaveLength(1);
  });

  it('reports a network failure of the first try once, and retries it', async () => {
    const onFirstNetworkFailure = vi.fn();
    let tries = 0;
    const fetchFn = async () => {
      tries++;
      if (tries < 3) throw new TypeError('Failed to fetch');
      return jsonResponse({});
    };
    const result = fetchWithRetry(fetchFn, 'http://s/x', {}, { ...policy, onFirstNetworkFailure });
    await vi.advanceTimersByTimeAsync(400);
    expect((await result).status).toBe(200);
    expect(onFirstNetworkFailure).toHaveBeenCalledTimes(1);
  });

  it("after the last try throws a network failure in words a person reads, the browser's error as its cause", async () => {
    const browserError = new TypeError('Failed to fetch');
    const fetchFn = vi.fn(async () => {
      throw browserError;
    });
    const result = fetchWithRetry(fetchFn, 'http://s/x', {}, policy);
    const settled = expect(result).rejects.toSatisfy(
      (error: unknown) =>
        error instanceof NoAnswerError &&
        error instanceof TypeError &&
        error.message === 'The server could not be reached (no connection)' &&
        error.cause === browserError,
    );
    await vi.advanceTimersByTimeAsync(400);
    await settled;
    expect(fetchFn).toHaveBeenCalledTimes(3);
  });

  it('never retries an abort', async () => {
    const controller = new AbortController();
    const fake = new FakeFetch().on('GET', '/x', () => new Promise<Response>(() => {}));
    const result = fetchWithRetry(fake.fetch, 'http://s/x', { signal: controller.signal }, policy);
    controller.abort(new DOMException('stop', 'AbortError'));
    await expect(result).rejects.toMatchObject({ name: 'AbortError' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(fake.calls).toHaveLength(1);
  });

  it('stops waiting between tries when aborted', async () => {
    const controller = new AbortController();
    const fake = new FakeFetch().on('GET', '/x', () => textResponse('down', 500));
    const result = fetchWithRetry(fake.fetch, 'http://s/x', { signal: controller.signal }, policy);
    const settled = expect(result).rejects.toMatchObject({ name: 'AbortError' });
    await vi.advanceTimersByTimeAsync(50);
    controller.abort(new DOMException('stop', 'AbortError'));
    await settled;
    expect(fake.calls).toHaveLength(1);
  });
});

describe('abortableDelay', () => {
  it('resolves after the delay and rejects at once when already aborted', async () => {
    const done = vi.fn();
    void abortableDelay(100).then(done);
    await vi.advanceTimersByTimeAsync(99);
    expect(done).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toHaveBeenCalled();
    await expect(abortableDelay(100, AbortSignal.abort('x'))).rejects.toBe('x');
  });
});

describe('readResponseBody', () => {
  it('parses JSON, returns text otherwise and nothing for 204/304', async () => {
    expect(await readResponseBody(jsonResponse({ a: 1 }))).toEqual({ a: 1 });
    expect(await readResponseBody(textResponse('hello'))).toBe('hello');
    expect(await readResponseBody(new Response(null, { status: 204 }))).toBeUndefined();
    expect(await readResponseBody(new Response(null, { status: 304 }))).toBeUndefined();
    expect(await readResponseBody(textResponse('', 200, 'application/json'))).toBeUndefined();
    const blob = await readResponseBody(textResponse('bytes'), 'blob');
    expect(blob).toBeInstanceOf(Blob);
  });

  it('builds the error from the OperationOutcome of a ≥400 answer', async () => {
    const outcome = {
      resourceType: 'OperationOutcome',
      issue: [{ severity: 'error', code: 'invalid', details: { text: 'Bad name' }, expression: ['Patient.name'] }],
    };
    const error = await readResponseBody(jsonResponse(outcome, 422)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperationOutcomeError);
    expect((error as OperationOutcomeError).status).toBe(422);
    expect((error as OperationOutcomeError).outcome).toEqual(outcome);
    expect((error as OperationOutcomeError).message).toBe('Bad name (Patient.name)');
  });

  it('gives a not-found error for a 404 without JSON', async () => {
    const error = await errorFromResponse(textResponse('<html>nope</html>', 404, 'text/html'));
    expect(error.status).toBe(404);
    expect(error.outcome).toEqual(notFound());
    expect(error.message).toBe('Not found');
  });

  it('uses other error bodies as the message', async () => {
    const oauth = await errorFromResponse(jsonResponse({ error: 'invalid_grant', error_description: 'Bad code' }, 400));
    expect(oauth.message).toBe('Bad code');
    const text = await errorFromResponse(textResponse('Gateway timeout', 504));
    expect(text.message).toBe('Gateway timeout');
    expect(text.outcome.issue[0].code).toBe('exception');
    const empty = await errorFromResponse(new Response('', { status: 403 }));
    expect(empty.outcome.issue[0].code).toBe('forbidden');
    expect(empty.status).toBe(403);
  });

  it('turns malformed JSON into a structure error', async () => {
    const error = await readResponseBody(textResponse('{oops', 200, 'application/json')).catch((e: unknown) => e);
    expect((error as OperationOutcomeError).outcome.issue[0].code).toBe('structure');
  });
});

describe('RequestBatcher', () => {
  function batcher(sendBatch: (bundle: Bundle) => Promise<Bundle>, sendOne = vi.fn(async () => ({ one: true }))) {
    return { batcher: new RequestBatcher({ delay: 100, sendOne, sendBatch }), sendOne };
  }

  it('sends a lone GET on its own after the window', async () => {
    const sendBatch = vi.fn();
    const { batcher: b, sendOne } = batcher(sendBatch);
    const result = b.enqueue('http://s/fhir/R4/Patient/1', 'Patient/1');
    await vi.advanceTimersByTimeAsync(99);
    expect(sendOne).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(await result).toEqual({ one: true });
    expect(sendOne).toHaveBeenCalledWith('http://s/fhir/R4/Patient/1', undefined);
    expect(sendBatch).not.toHaveBeenCalled();
  });

  it('splits a batch response back to each caller, one entry failing', async () => {
    const sendBatch = vi.fn(async (): Promise<Bundle> => ({
      resourceType: 'Bundle',
      type: 'batch-response',
      entry: [
        { resource: { resourceType: 'Patient', id: '1' }, response: { status: '200 OK' } },
        { response: { status: '404 Not Found', outcome: notFound() } },
        { resource: { resourceType: 'Patient', id: '3' }, response: { status: '200' } },
      ],
    }));
    const { batcher: b } = batcher(sendBatch);
    const one = b.enqueue('u1', 'Patient/1');
    const two = b.enqueue('u2', 'Patient/2').catch((e: unknown) => e);
    const three = b.enqueue('u3', 'Patient/3');
    await vi.advanceTimersByTimeAsync(100);
    expect(sendBatch).toHaveBeenCalledTimes(1);
    expect(sendBatch.mock.calls[0]).toEqual([
      {
        resourceType: 'Bundle',
        type: 'batch',
        entry: [
          { request: { method: 'GET', url: 'Patient/1' } },
          { request: { method: 'GET', url: 'Patient/2' } },
          { request: { method: 'GET', url: 'Patient/3' } },
        ],
      },
    ]);
    expect(await one).toEqual({ resourceType: 'Patient', id: '1' });
    expect(await three).toEqual({ resourceType: 'Patient', id: '3' });
    const error = (await two) as OperationOutcomeError;
    expect(error).toBeInstanceOf(OperationOutcomeError);
    expect(error.status).toBe(404);
    expect(error.message).toBe('Not found');
  });

  it('rejects an entry the response lacks, and every entry when the batch fails', async () => {
    const short = batcher(async () => ({ resourceType: 'Bundle', type: 'batch-response', entry: [] }) as Bundle);
    const missing = short.batcher.enqueue('u1', 'Patient/1').catch((e: unknown) => e);
    void short.batcher.enqueue('u2', 'Patient/2').catch(() => undefined);
    await vi.advanceTimersByTimeAsync(100);
    expect(((await missing) as Error).message).toContain('no entry for Patient/1');

    const failing = batcher(async () => {
      throw new Error('batch down');
    });
    const a = failing.batcher.enqueue('u1', 'Patient/1').catch((e: unknown) => e);
    const b = failing.batcher.enqueue('u2', 'Patient/2').catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100);
    expect(((await a) as Error).message).toBe('batch down');
    expect(((await b) as Error).message).toBe('batch down');
  });

  it('drops a queued GET whose caller aborts before the window closes', async () => {
    const sendBatch = vi.fn();
    const { batcher: b, sendOne } = batcher(sendBatch);
    const controller = new AbortController();
    const aborted = b.enqueue('u1', 'Patient/1', controller.signal).catch((e: unknown) => e);
    const kept = b.enqueue('u2', 'Patient/2');
    controller.abort(new DOMException('stop', 'AbortError'));
    expect(((await aborted) as DOMException).name).toBe('AbortError');
    expect(b.pending).toBe(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(await kept).toEqual({ one: true });
    expect(sendOne).toHaveBeenCalledWith('u2', undefined);
    expect(sendBatch).not.toHaveBeenCalled();
  });
});
