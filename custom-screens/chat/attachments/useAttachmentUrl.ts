import { useEffect, useState } from 'react';
import { useShellClient } from '../../../src/shell';

/**
 * A URL the browser can show for an attachment: the Binary is fetched with the user's token (an
 * <img> cannot send it) and shown from memory; released when the view goes away.
 */
export function useAttachmentUrl(url: string | undefined): { src?: string; error?: boolean } {
  const client = useShellClient();
  const [state, setState] = useState<{ src?: string; error?: boolean }>({});
  useEffect(() => {
    if (!url) return undefined;
    let objectUrl: string | undefined;
    let active = true;
    client
      .download(url)
      .then((blob) => {
        if (!active) return;
        objectUrl = URL.createObjectURL(blob);
        setState({ src: objectUrl });
      })
      .catch(() => active && setState({ error: true }));
    return () => {
      active = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [client, url]);
  return state;
}
