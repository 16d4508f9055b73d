import { useEffect, useState } from 'react';
import type { FhirClient, RegistrationOptions } from '../../data-provider/client';

const closed: RegistrationOptions = { registration: 'closed', googleClientId: null };

/**
 * Whether the server lets people register and offers Google sign-in (GET auth/registration).
 * Undefined while loading; a server that cannot say is treated as offering neither.
 */
export function useRegistrationOptions(client: FhirClient): RegistrationOptions | undefined {
  const [options, setOptions] = useState<RegistrationOptions>();
  useEffect(() => {
    let live = true;
    client.getRegistrationOptions().then(
      (answer) => live && setOptions(answer),
      () => live && setOptions(closed),
    );
    return () => {
      live = false;
    };
  }, [client]);
  return options;
}
