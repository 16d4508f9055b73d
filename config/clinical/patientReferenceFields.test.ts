import { describe, expect, it } from 'vitest';
import { newResourceForPatient, patientReferenceField } from './patientReferenceFields';

const patient = { reference: 'Patient/p1', display: 'Ada Lovelace' };

describe('patient reference field per type (app-spec §3)', () => {
  it.each([
    ['Task', 'for'],
    ['MedicationRequest', 'subject'],
    ['ServiceRequest', 'subject'],
    ['DiagnosticReport', 'subject'],
    ['DocumentReference', 'subject'],
    ['CarePlan', 'subject'],
    ['Device', 'patient'],
  ])('%s points at the patient through %s', (type, field) => {
    expect(patientReferenceField(type)).toBe(field);
    expect(newResourceForPatient(type, patient)).toEqual({ resourceType: type, [field]: patient });
  });

  it('Appointment puts the patient as the actor of a one-item participant list', () => {
    const appointment = newResourceForPatient('Appointment', patient) as { participant?: unknown[] };
    expect(appointment.participant).toEqual([{ actor: patient, status: 'accepted' }]);
  });

  it('a type without a known patient field starts empty rather than with a wrong field', () => {
    expect(newResourceForPatient('Organization', patient)).toEqual({ resourceType: 'Organization' });
    expect(patientReferenceField('Organization')).toBeUndefined();
  });
});
