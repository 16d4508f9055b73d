import type { Patient, Practitioner, Reference, Resource } from '@medplum/fhirtypes';
import { ageOf, formatCodeableConcept, formatDate, formatIdentifier } from '../../data-provider/formatting';
import { hitIdentifier, looksLikeId } from '../shell/globalSearch';

/** How much of an id the quiet line shows for a type with nothing better to tell its resources apart. */
export const SHORT_ID_LENGTH = 8;

/** What a chosen reference reads as: its display, else the reference itself ('Patient/123'). */
export function referenceValueLabel(reference: Reference | null | undefined): string {
  return reference?.display?.trim() || reference?.reference || '';
}

/**
 * The quiet second line of a reference option, which tells apart resources of the same name:
 * a patient's birth date (as the patient lists show it) with age, gender and MRN (as the global
 * search shows it); a practitioner's qualification and identifier, else e-mail or phone; otherwise, or when there is
 * nothing of the kind, the type and a short id ('Organization · 5c1f0a2b').
 */
export function referenceOptionDetail(resource: Resource, today: Date = new Date()): string {
  const parts =
    resource.resourceType === 'Patient'
      ? patientParts(resource, today)
      : resource.resourceType === 'Practitioner'
        ? practitionerParts(resource)
        : [];
  return parts.length > 0 ? parts.join(' · ') : typeAndShortId(resource);
}

function patientParts(patient: Patient, today: Date): string[] {
  const parts: string[] = [];
  const deceased = patient.deceasedBoolean === true || !!patient.deceasedDateTime;
  if (patient.birthDate) {
    // A patient who has died is not shown the age they would be today (see the chart's birth line).
    const age = deceased ? undefined : ageOf(patient.birthDate, today);
    parts.push(age ? `${formatDate(patient.birthDate)} (${age})` : formatDate(patient.birthDate));
  }
  if (deceased) parts.push('deceased');
  if (patient.gender) parts.push(patient.gender);
  const identifier = hitIdentifier(patient);
  if (identifier) parts.push(identifier);
  return parts;
}

function practitionerParts(practitioner: Practitioner): string[] {
  const parts: string[] = [];
  const qualification = (practitioner.qualification ?? [])
    .map((entry) => formatCodeableConcept(entry.code))
    .find((text) => text);
  if (qualification) parts.push(qualification);
  // A UUID-looking identifier (an import's) names nothing a person would recognise.
  const identifier = (practitioner.identifier ?? []).find((entry) => entry.value && !looksLikeId(entry.value));
  const text = formatIdentifier(identifier);
  if (text) parts.push(text);
  // Staff accounts often have neither: their e-mail (or phone) tells two of the same name apart in words.
  if (parts.length === 0) {
    const contact =
      practitioner.telecom?.find((point) => point.system === 'email' && point.value) ??
      practitioner.telecom?.find((point) => point.system === 'phone' && point.value);
    if (contact?.value) parts.push(contact.value);
  }
  return parts;
}

function typeAndShortId(resource: Resource): string {
  return resource.id ? `${resource.resourceType} · ${resource.id.slice(0, SHORT_ID_LENGTH)}` : resource.resourceType;
}
