import type { ContactPoint } from '@medplum/fhirtypes';

/** A phone number, email or other contact value with its use in parentheses: '555-0100 (work)'. */
export function formatContactPoint(contactPoint: ContactPoint | undefined): string {
  const value = contactPoint?.value?.trim();
  if (!value) return '';
  return contactPoint?.use ? `${value} (${contactPoint.use})` : value;
}
