import { createContext, useContext } from 'react';
import type { FhirClient } from '../../data-provider/client';
import { hearthClient } from '../hearthClient';

/** The FHIR client the console screens read and write through; tests provide their own. */
export const FhirClientContext = createContext<FhirClient>(hearthClient);

export function useFhirClient(): FhirClient {
  return useContext(FhirClientContext);
}
