/**
 * How a chart list is sorted (app-spec §2.3): by the date the record is about where the type has
 * one to search by, newest first, then by when it was last written. Imported histories are written
 * all at once, in whatever order the file had, so "last written" alone listed a 1997 visit between
 * two of 1999; and an old order edited today, or a task whose status changed, jumped to the top.
 * Records without that date come last (the server sorts missing values last).
 *
 * Appointments too, by their start, latest first: the upcoming ones head the list (the furthest
 * first, as every list here reads), then the past ones, most recent first — one order the server
 * pages through, where "soonest upcoming first, then the past" would take two searches stitched
 * across pages. Devices have no such date: they keep the last write.
 */
const CLINICAL_DATE_SORT: Readonly<Record<string, string>> = {
  Task: '-authored-on',
  Appointment: '-date',
  Communication: '-sent',
  MedicationRequest: '-authoredon',
  ServiceRequest: '-authored',
  // Those not issued yet (still in progress) after the issued ones, by when what they report on was observed.
  DiagnosticReport: '-issued,-date',
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
