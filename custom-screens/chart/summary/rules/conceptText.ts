import type { CodeableConcept } from '@medplum/fhirtypes';
import { formatCodeableConcept } from '../../../../data-provider/formatting';

/**
 * The concept to save for a typed name: the existing concept (with its codes) while the text is
 * the one it was shown as, else a text-only concept, since a renamed entry no longer means the old code.
 */
export function conceptFromText(text: string, existing: CodeableConcept | undefined): CodeableConcept {
  const trimmed = text.trim();
  if (existing && formatCodeableConcept(existing) === trimmed) return existing;
  return { text: trimmed };
}
