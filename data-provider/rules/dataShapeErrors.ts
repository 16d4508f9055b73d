/**
 * Errors for values whose shape does not fit their declared type. Builders rather than throws, so
 * a caller can throw, reject or collect them as it needs; the messages are those of spec §5 and §8.
 */

/** 'Expected a singleton of type X': a 0..1 element, or an expression meant to give one value, gave several. */
export function singletonShapeError(expectedType: string, actualCount?: number): Error {
  const found = actualCount === undefined ? '' : ` (got ${actualCount} values)`;
  return new Error(`Expected a singleton of type ${expectedType}${found}`);
}

/** 'Unknown data type: {type}': a type name that no definition describes. */
export function unknownDataTypeError(type: string): Error {
  return new Error(`Unknown data type: ${type}`);
}

/**
 * The one value of a singleton, or undefined when there is none. A list with more than one item
 * is the wrong shape and throws the singleton error.
 */
export function requireSingleton<T>(value: T | readonly T[] | undefined, expectedType: string): T | undefined {
  if (!Array.isArray(value)) return value as T | undefined;
  if (value.length > 1) throw singletonShapeError(expectedType, value.length);
  return value[0];
}
