const equalsSign = 0x3d;

/** A-Z, a-z, 0-9, `+` and `/`: the standard alphabet, not the URL-safe one. */
function isAlphabetCode(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2b ||
    code === 0x2f
  );
}

/**
 * Whether `value` is base64 (RFC 4648 §4): whole groups of four characters of the standard
 * alphabet, of which only the last may end in `=` padding (`xx==` or `xxx=`).
 *
 * One pass over the characters, no regular expression: the earlier rule,
 * `^(?:[A-Za-z0-9+/]{4})*(?:…==|…=)?$`, keeps a backtracking frame per group, and V8 ran out of
 * stack on values of ~4–5 MB ("Maximum call stack size exceeded") — an Attachment with 5 MB of
 * inline data threw in the browser's form and was a 500 on the server. This accepts exactly what
 * that rule accepted.
 *
 * White space is refused, as before: FHIR R4's own regex for base64Binary let it in between
 * groups, but the current FHIR build's regex is the rule above, without it.
 */
export function isBase64Binary(value: string): boolean {
  const length = value.length;
  if (length % 4 !== 0) return false;
  // Padding may only be the value's last one or two characters; every other one is the alphabet's.
  let dataEnd = length;
  if (length > 0 && value.charCodeAt(length - 1) === equalsSign) {
    dataEnd = value.charCodeAt(length - 2) === equalsSign ? length - 2 : length - 1;
  }
  for (let index = 0; index < dataEnd; index++) {
    if (!isAlphabetCode(value.charCodeAt(index))) return false;
  }
  return true;
}
