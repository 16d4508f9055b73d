/**
 * The Patient search for what a person types to find a patient, as a front desk does: a birth date
 * (`1980-02-03`) searches `birthdate`, one word holding a digit (a record number such as `A1034`)
 * `identifier`, anything else `name`. Names hold no digits and record numbers no spaces, so the
 * three never compete; an empty text is no filter.
 */
export function patientLookupQuery(text: string): Record<string, string> {
  const value = text.trim();
  if (!value) return {};
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return { birthdate: value };
  if (/\d/.test(value) && !/\s/.test(value)) return { identifier: value };
  return { name: value };
}

/** What the search accepts, in words, for the field that takes it. */
export const patientLookupHint = 'Search by name, birth date (YYYY-MM-DD) or record number';
