import { useEffect, useState } from 'react';
import type { FhirClient } from '../../data-provider/client';

/**
 * The registered name of the app a `/oauth` sign-in is for, so the person knows who asks for their
 * account. Undefined while loading, when the app has no name, or when the server cannot say: the
 * page then speaks of "An application".
 */
export function useAppName(client: FhirClient, clientId: string | undefined): string | undefined {
  const [name, setName] = useState<string>();
  useEffect(() => {
    if (!clientId) return;
    let live = true;
    client.getClientInfo(clientId).then(
      (info) => live && setName(info.name?.trim() || undefined),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client, clientId]);
  return name;
}
