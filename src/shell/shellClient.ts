import { createContext, useContext } from 'react';
import type { FhirClient } from '../../data-provider/client';
import { hearthClient } from '../hearthClient';

/** The client the shell and account screens use; component tests provide their own. */
export const ShellClientContext = createContext<FhirClient>(hearthClient);

export function useShellClient(): FhirClient {
  return useContext(ShellClientContext);
}
