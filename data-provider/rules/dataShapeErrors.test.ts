import { describe, expect, it } from 'vitest';
import { requireSingleton, singletonShapeError, unknownDataTypeError } from './dataShapeErrors';

describe('singletonShapeError', () => {
  it('says that a singleton of the type was expected', () => {
    expect(singletonShapeError('Quantity')).toBeInstanceOf(Error);
    expect(singletonShapeError('Quantity').message).toBe('Expected a singleton of type Quantity');
    expect(singletonShapeError('string', 3).message).toBe('Expected a singleton of type string (got 3 values)');
  });
});

describe('unknownDataTypeError', () => {
  it('names the type', () => {
    expect(unknownDataTypeError('Foo').message).toBe('Unknown data type: Foo');
  });
});

describe('requireSingleton', () => {
  it('answers the only value, a plain value or nothing', () => {
    expect(requireSingleton(['a'], 'string')).toBe('a');
    expect(requireSingleton('a', 'string')).toBe('a');
    expect(requireSingleton([], 'string')).toBeUndefined();
    expect(requireSingleton(undefined, 'string')).toBeUndefined();
  });
  it('throws the singleton error for several values', () => {
    expect(() => requireSingleton([1, 2], 'integer')).toThrow('Expected a singleton of type integer (got 2 values)');
  });
});
