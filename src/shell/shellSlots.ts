import { createContext, useContext, type ComponentType, type ReactNode } from 'react';
import type { Reference } from '@medplum/fhirtypes';

/**
 * Parts of the shell that feature screens supply (the shell may not import custom-screens/):
 * the patient portal's layout, used instead of the staff shell when the signed-in profile is a
 * Patient, and the e-prescribing bell with its live count.
 */
export interface ShellSlots {
  PatientLayout?: ComponentType<{ children?: ReactNode; patient: Reference }>;
  EPrescribingBell?: ComponentType;
}

export const ShellSlotsContext = createContext<ShellSlots>({});

export function useShellSlots(): ShellSlots {
  return useContext(ShellSlotsContext);
}
