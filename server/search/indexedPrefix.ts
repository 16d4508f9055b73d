/**
 * How many characters of a free-text index value the b-tree indexes hold (migrations.ts): at most
 * 4 bytes a character, both token columns together and one string or uri column stay well under
 * PostgreSQL's limit of ~2.7 kB per index entry, whatever the value's length.
 */
export const indexedPrefixLength = { token: 256, string: 512, uri: 512 } as const;

/** The first `length` characters (code points, as PostgreSQL's left() counts them) of `value`. */
export function leadingCharacters(value: string, length: number): string {
  if (value.length <= length) return value;
  return Array.from(value).slice(0, length).join('');
}

/** True when `value` is longer than `length` characters (so the indexed prefix alone cannot decide). */
export function exceeds(value: string, length: number): boolean {
  return value.length > length && Array.from(value).length > length;
}
