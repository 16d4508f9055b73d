/** Allergies of the chart summary (app-spec §3). */

export const ALLERGY_CLINICAL_STATUS_SYSTEM = 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical';

export const ALLERGY_CLINICAL_STATUSES = ['active', 'inactive', 'resolved'] as const;
