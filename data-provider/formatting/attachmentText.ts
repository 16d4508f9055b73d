import type { Attachment } from '@medplum/fhirtypes';

/**
 * Base64 text decoded in the charset its content type names — UTF-8 unless it says otherwise.
 * `atob` alone gives one character per byte, so a note's "°C" or "’" came out as "Â°C" and "â€™".
 * Undefined when `data` is not base64.
 */
export function decodeBase64Text(data: string, contentType: string | undefined): string | undefined {
  let binary: string;
  try {
    binary = atob(data.replace(/\s+/g, ''));
  } catch {
    return undefined;
  }
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    // A charset the browser does not know: UTF-8 reads ASCII and most of the rest.
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/**
 * The text of an attachment carried inline as text (a clinical note: `data` with a text/* type and
 * no `url`), to show as text; undefined for a file to open or data that does not decode.
 */
export function inlineTextOf(attachment: Attachment): string | undefined {
  if (!attachment.data || attachment.url || !(attachment.contentType ?? '').startsWith('text/')) return undefined;
  return decodeBase64Text(attachment.data, attachment.contentType);
}
