/**
 * ClientApplication.accessTokenLifetime and refreshTokenLifetime (Medplum's fields): whole seconds,
 * or a whole number followed by s, m, h, d or w — `3600`, `30m`, `1h`, `2w`. Shared by the write
 * check, which names the field, and the token endpoint, which falls back to its defaults for a
 * value saved before the check existed.
 */
const secondsPerUnit: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/** The lifetime in seconds, or undefined when the text is not one (or is zero). */
export function tokenLifetimeSeconds(value: string): number | undefined {
  const match = /^(\d{1,9})\s*([smhdw]?)$/.exec(value.trim());
  if (!match) return undefined;
  const seconds = Number(match[1]) * secondsPerUnit[match[2]];
  return seconds > 0 ? seconds : undefined;
}

/** Why a saved lifetime could not be used, or undefined when it can (non-strings are the structure check's). */
export function tokenLifetimeProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || tokenLifetimeSeconds(value) !== undefined) return undefined;
  return 'A token lifetime is a positive number of seconds, or a number followed by s, m, h, d or w (30m, 1h, 2w)';
}
