import type { CodeableConcept, Coding } from '@medplum/fhirtypes';

/**
 * What a person reads for a coding: its display, else its code. With `includeCode` the code
 * follows in parentheses ('Hypertension (38341003)'), for screens where coders need both.
 */
export function formatCoding(coding: Coding | undefined, options: { includeCode?: boolean } = {}): string {
  const display = coding?.display?.trim();
  const code = coding?.code?.trim();
  if (display && code && options.includeCode) return `${display} (${code})`;
  return display || code || '';
}

/**
 * What a person reads for a concept: the text the author chose, else the first coding that has
 * a display, else the first coding's code.
 */
export function formatCodeableConcept(concept: CodeableConcept | undefined): string {
  const text = concept?.text?.trim();
  if (text) return text;
  const codings = concept?.coding ?? [];
  const withDisplay = codings.find((coding) => coding.display?.trim());
  return formatCoding(withDisplay ?? codings.find((coding) => coding.code?.trim()));
}
