/**
 * Percent-encodes one query component, leaving readable the characters FHIR queries are full of
 * (`:` `/` `,` `|` `$` `@`): they are legal in a query and every server decodes them the same way.
 */
export function encodeQueryComponent(value: string): string {
  return encodeURIComponent(value).replace(/%(3A|2F|2C|7C|24|40)/gi, (escape) => decodeURIComponent(escape));
}

export function formatQueryPairs(pairs: readonly (readonly [string, string])[]): string {
  return pairs.map(([key, value]) => `${encodeQueryComponent(key)}=${encodeQueryComponent(value)}`).join('&');
}
