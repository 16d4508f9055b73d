import type { Patient } from '@medplum/fhirtypes';
import { DOSESPOT_PATIENT_ID_SYSTEM } from './dosespotBotIds';

/** DoseSpot's AddEditPatientRequest (RESTful API v2), the fields this integration fills. */
export interface DoseSpotPatientRequest {
  FirstName: string;
  MiddleName?: string;
  LastName: string;
  DateOfBirth: string;
  Gender: 'Male' | 'Female' | 'Unknown';
  Email?: string;
  Address1: string;
  Address2?: string;
  City: string;
  State: string;
  ZipCode: string;
  PrimaryPhone: string;
  PrimaryPhoneType: 'Home' | 'Cell' | 'Work' | 'Primary';
  NonDoseSpotMedicalRecordNumber?: string;
  Active: boolean;
}

const phoneTypes: Record<string, DoseSpotPatientRequest['PrimaryPhoneType']> = {
  home: 'Home',
  mobile: 'Cell',
  work: 'Work',
};

function clip(value: string | undefined, max: number): string {
  return (value ?? '').trim().slice(0, max);
}

/**
 * The patient as DoseSpot wants them. DoseSpot refuses a patient without name, birth date,
 * gender, address and phone; the error names what the chart must add rather than sending a
 * request DoseSpot would reject.
 */
export function toDoseSpotPatient(patient: Patient): DoseSpotPatientRequest {
  const name = patient.name?.find((n) => n.use === 'official') ?? patient.name?.[0];
  const address = patient.address?.find((a) => a.use === 'home') ?? patient.address?.[0];
  const phone = patient.telecom?.find((t) => t.system === 'phone' && t.value);
  const email = patient.telecom?.find((t) => t.system === 'email' && t.value)?.value;
  const digits = (phone?.value ?? '').replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '');
  const request: DoseSpotPatientRequest = {
    FirstName: clip(name?.given?.[0], 35),
    ...(name?.given?.[1] ? { MiddleName: clip(name.given[1], 35) } : {}),
    LastName: clip(name?.family, 35),
    DateOfBirth: patient.birthDate ?? '',
    Gender: patient.gender === 'male' ? 'Male' : patient.gender === 'female' ? 'Female' : 'Unknown',
    ...(email ? { Email: clip(email, 80) } : {}),
    Address1: clip(address?.line?.[0], 35),
    ...(address?.line?.[1] ? { Address2: clip(address.line[1], 35) } : {}),
    City: clip(address?.city, 35),
    State: clip(address?.state, 50),
    ZipCode: clip(address?.postalCode, 10),
    PrimaryPhone: digits,
    PrimaryPhoneType: phoneTypes[phone?.use ?? ''] ?? 'Primary',
    NonDoseSpotMedicalRecordNumber: clip(patient.id, 35),
    Active: patient.active !== false,
  };
  const missing = [
    !request.FirstName && 'given name',
    !request.LastName && 'family name',
    !request.DateOfBirth && 'birth date',
    !request.Address1 && 'address line',
    !request.City && 'city',
    !request.State && 'state',
    !request.ZipCode && 'postal code',
    request.PrimaryPhone.length !== 10 && 'a 10-digit phone number',
  ].filter((field): field is string => !!field);
  if (missing.length > 0) throw new Error(`DoseSpot needs the patient's ${missing.join(', ')}`);
  return request;
}

/** The patient's DoseSpot id, when they were synced before. */
export function doseSpotPatientIdOf(patient: Patient): number | undefined {
  const value = patient.identifier?.find((identifier) => identifier.system === DOSESPOT_PATIENT_ID_SYSTEM)?.value;
  const id = Number(value);
  return value && Number.isInteger(id) ? id : undefined;
}

/** The patient with their DoseSpot id recorded (replacing an older one). */
export function withDoseSpotPatientId(patient: Patient, doseSpotPatientId: number): Patient {
  return {
    ...patient,
    identifier: [
      ...(patient.identifier ?? []).filter((identifier) => identifier.system !== DOSESPOT_PATIENT_ID_SYSTEM),
      { system: DOSESPOT_PATIENT_ID_SYSTEM, value: String(doseSpotPatientId) },
    ],
  };
}
