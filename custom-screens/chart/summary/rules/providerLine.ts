import type { Patient, Reference } from '@medplum/fhirtypes';
import { referencedName, type ReferenceNames } from '../../referenceNames';

export const NO_PROVIDER = 'No provider';
/** The patient has a provider whose record cannot be read here (deleted, not permitted, elsewhere). */
export const PROVIDER_NOT_AVAILABLE = 'Provider not available';

/** What a look-up of the patient's general practitioner brought back. */
export interface ProviderLookup {
  /** Still on its way. */
  loading: boolean;
  /** The names of what it found, by `Type/id`. */
  names: ReferenceNames;
}

/** The provider the header names: the first listed, as the patient's main one. */
export function generalPractitionerOf(patient: Patient): Reference | undefined {
  const gp = patient.generalPractitioner?.[0];
  return gp && (gp.reference?.trim() || gp.display?.trim() || gp.identifier) ? gp : undefined;
}

/**
 * The header's provider line: the name of the patient's general practitioner — its reference's
 * display, the contained or looked-up resource's name — or NO_PROVIDER when there is none; never
 * the bare id. Undefined while the name is still being looked up.
 */
export function providerLine(patient: Patient, lookup: ProviderLookup): string | undefined {
  const gp = generalPractitionerOf(patient);
  if (!gp) return NO_PROVIDER;
  const name = referencedName(gp, lookup.names, patient);
  if (name) return name;
  return lookup.loading ? undefined : PROVIDER_NOT_AVAILABLE;
}

/**
 * Whether a look-up made from `lookedUp` (the patient as the search found it) followed the
 * patient's present provider. It did not when the patient was edited since (the chart's Edit tab
 * saves a new provider while the summary keeps its first answer): that provider is looked up anew.
 */
export function lookupFollowed(patient: Patient, lookedUp: Patient | undefined): boolean {
  const target = generalPractitionerOf(patient)?.reference?.trim();
  if (!target) return true;
  return (lookedUp?.generalPractitioner ?? []).some((gp) => gp.reference?.trim() === target);
}
