import { describe, expect, it } from 'vitest';
import { NoAnswerError } from '../../data-provider/client';
import { isNetworkFailure } from './networkFailure';

describe('isNetworkFailure', () => {
  it('knows the browsers’ words for a request that got no answer', () => {
    expect(isNetworkFailure(new TypeError('Failed to fetch'))).toBe(true);
    expect(isNetworkFailure(new TypeError('NetworkError when attempting to fetch resource.'))).toBe(true);
    expect(isNetworkFailure(new TypeError('Load failed'))).toBe(true);
    expect(isNetworkFailure(new TypeError('fetch failed'))).toBe(true);
    expect(isNetworkFailure(new NoAnswerError(new TypeError('Failed to fetch')))).toBe(true);
  });

  it('leaves other errors to say what they say', () => {
    expect(isNetworkFailure(new TypeError('Cannot read properties of undefined'))).toBe(false);
    expect(isNetworkFailure(new Error('Failed to fetch'))).toBe(false);
    expect(isNetworkFailure('Failed to fetch')).toBe(false);
    expect(isNetworkFailure(undefined)).toBe(false);
  });
});
