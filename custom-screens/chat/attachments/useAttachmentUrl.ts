import { useEffect, useState } from 'react';
import type { FileAddress } from '../../../data-provider/client';
import { useShellClient } from '../../../src/shell';

export interface AttachmentUrlState {
  /** An object URL of the file's bytes, to show or save. */
  src?: string;
  error?: boolean;
  /**
   * The attachment's address is not a file of this server (another origin, another route of this
   * one such as `oauth2/logout`, `javascript:`, `data:text/html`): nothing was requested.
   */
  unloaded?: FileAddress;
}

/** Raster images an <img> shows and a tab opens as a picture. */
const rasterImage = /^image\/(?:png|jpeg|gif|webp|bmp|avif)$/;

/**
 * The bytes as the view shows them, typed by how it shows them, never by what the answer claims:
 * an object URL has the app's origin, so HTML or SVG opened from it (the link, the PDF frame)
 * would run as the app. A picture keeps a raster type, a PDF is a PDF, anything else only downloads.
 */
function shownBlob(blob: Blob, shownAs: 'image' | 'pdf' | 'file'): Blob {
  const type = blob.type.split(';')[0].trim().toLowerCase();
  if (shownAs === 'image' && rasterImage.test(type)) return blob;
  return new Blob([blob], { type: shownAs === 'pdf' ? 'application/pdf' : 'application/octet-stream' });
}

/**
 * A URL the browser can show for an attachment: a file of this server (a Binary, read with the
 * user's token, which an <img> cannot send; a signed storage address; an inline picture) is
 * fetched by the client and shown from memory, released when the view goes away. Any other
 * address is never requested (FhirClient.fileAddress): `unloaded` says what it is.
 */
export function useAttachmentUrl(
  url: string | undefined,
  shownAs: 'image' | 'pdf' | 'file' = 'file',
): AttachmentUrlState {
  const client = useShellClient();
  const address = url ? client.fileAddress(url) : undefined;
  const loadable = address?.kind === 'server' || address?.kind === 'signed' || address?.kind === 'inline';
  const [state, setState] = useState<{ src?: string; error?: boolean }>({});
  useEffect(() => {
    if (!url || !loadable) return undefined;
    let objectUrl: string | undefined;
    let active = true;
    client
      .download(url)
      .then((blob) => {
        if (!active) return;
        objectUrl = URL.createObjectURL(shownBlob(blob, shownAs));
        setState({ src: objectUrl });
      })
      .catch(() => active && setState({ error: true }));
    return () => {
      active = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [client, url, loadable, shownAs]);
  return address && !loadable ? { unloaded: address } : state;
}
