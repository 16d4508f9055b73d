/**
 * What a Binary's stored `contentType` may be, and how it is served. The type becomes the answer's
 * `Content-Type` header, which a browser reads as a list: `image/png, text/html` is HTML to it
 * (Fetch's "extract a MIME type" keeps the last type), and a line break cannot be sent at all.
 */

const token = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
// A parameter value is a token or a quoted string without quotes, backslashes or control characters.
const parameter = `\\s*;\\s*${token}=(?:${token}|"[^"\\\\\\u0000-\\u001f\\u007f]*")`;
const mediaTypePattern = new RegExp(`^${token}/${token}(?:${parameter})*\\s*$`);

/** One media type (`type/subtype`, optional parameters), nothing a browser could read as two. */
export function isSingleMediaType(contentType: string): boolean {
  return contentType.length <= 255 && mediaTypePattern.test(contentType);
}

/** The type without parameters, lower case (`text/plain; charset=utf-8` → `text/plain`). */
export function mediaTypeEssence(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/** Types a browser shows safely in the page (images, PDF, plain text, audio, video); the rest downloads. */
const inlineTypes = /^(?:image\/(?:png|jpeg|gif|webp|bmp)|application\/pdf|text\/plain|audio\/[^/]+|video\/[^/]+)$/;

/**
 * The `Content-Type` and disposition kind a stored Binary is served with. A stored type that is
 * not one media type (written before uploads were checked, or by server code) is served as
 * `application/octet-stream`, to download, rather than failing or being read as something else.
 */
export function servedContentType(stored: string | undefined): { contentType: string; inline: boolean } {
  if (!stored || !isSingleMediaType(stored)) return { contentType: 'application/octet-stream', inline: false };
  return { contentType: stored, inline: inlineTypes.test(mediaTypeEssence(stored)) };
}
