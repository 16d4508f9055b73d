/** Profiles of app-spec §3 used when the chart creates or edits a resource. */
export const US_CORE_PATIENT_PROFILE = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient';
export const US_CORE_IMPLANTABLE_DEVICE_PROFILE =
  'http://hl7.org/fhir/us/core/StructureDefinition/us-core-implantable-device';
/** Medplum Provider's lab procedure ServiceRequest profile; used only when the server has it. */
export const PROVIDER_LAB_PROCEDURE_PROFILE =
  'http://medplum.com/StructureDefinition/medplum-provider-lab-procedure-servicerequest';

export const CHART_PROFILE_URLS: Readonly<Record<string, string>> = {
  Patient: US_CORE_PATIENT_PROFILE,
  ServiceRequest: PROVIDER_LAB_PROCEDURE_PROFILE,
  Device: US_CORE_IMPLANTABLE_DEVICE_PROFILE,
};

/** US Core race and ethnicity extensions (onboarding form). */
export const US_CORE_RACE_EXTENSION = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-race';
export const US_CORE_ETHNICITY_EXTENSION = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-ethnicity';
export const OMB_RACE_SYSTEM = 'urn:oid:2.16.840.1.113883.6.238';
