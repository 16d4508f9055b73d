/**
 * How a chart list is sorted, newest first (app-spec §2.3): by the date the record is about where
 * the type has one to search by, then by when it was last written. Imported histories are written
 * all at once, in whatever order the file had, so "last written" alone listed a 1997 visit between
 * two of 1999; and an old order edited today jumped to the top. Records without that date come last
 * (the server sorts missing values last).
 *
 * Tasks, appointments and devices keep the last write: they are the clinic's own work, written as
 * it happens, and a task or an appointment just made belongs at the top.
 */
const CLINICAL_DATE_SORT: Readonly<Record<string, string>> = {
  MedicationRequest: '-authoredon',
  ServiceRequest: '-authored',
  DiagnosticReport: '-issued',
  DocumentReference: '-date',
  CarePlan: '-date',
  // Types a chart path lists without a tab of their own (the summary's "documented visits", …).
  Encounter: '-date',
  Observation: '-date',
  Condition: '-onset-date,-recorded-date',
  AllergyIntolerance: '-date',
  Procedure: '-date',
  Immunization: '-date',
  ImagingStudy: '-started',
  Claim: '-created',
  ExplanationOfBenefit: '-created',
};

export const LAST_WRITTEN_SORT = '-_lastUpdated';

/** The `_sort` of a chart list of `resourceType`. */
export function chartListSort(resourceType: string): string {
  const clinical = CLINICAL_DATE_SORT[resourceType];
  return clinical ? `${clinical},${LAST_WRITTEN_SORT}` : LAST_WRITTEN_SORT;
}
