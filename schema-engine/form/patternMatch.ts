/**
 * FHIR pattern matching: every property of the pattern is present with an equal value; for
 * arrays, every pattern item matches some item of the value (ElementDefinition.pattern[x]).
 */
export function matchesPattern(value: unknown, pattern: unknown): boolean {
  if (pattern === undefined || pattern === null) return true;
  if (Array.isArray(pattern)) {
    const items = Array.isArray(value) ? value : [value];
    return pattern.every((p) => items.some((item) => matchesPattern(item, p)));
  }
  if (typeof pattern === 'object') {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    return Object.entries(pattern as Record<string, unknown>).every(([key, p]) =>
      matchesPattern((value as Record<string, unknown>)[key], p),
    );
  }
  return value === pattern;
}
