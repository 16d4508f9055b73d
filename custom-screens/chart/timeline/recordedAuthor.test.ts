import { describe, expect, it } from 'vitest';
import type { Resource } from '@medplum/fhirtypes';
import { recordedAuthor, timelineByline } from './recordedAuthor';

const system = { reference: 'Practitioner/system', display: 'System' };
const alice = { reference: 'Practitioner/a', display: 'Dr. Alice Carter' };
const resource = (json: Record<string, unknown>) => json as unknown as Resource;

// Shapes as the Synthea R4 bundles write them (synthetic data, Apache-2.0).
const encounter = resource({
  resourceType: 'Encounter',
  status: 'finished',
  participant: [{ individual: { reference: 'urn:uuid:0000016d', display: 'Dr. Jimmie Harris' } }],
  meta: { author: system },
});

describe('who a timeline entry names beside its date', () => {
  it('finds who the record says did it: prescriber, recorder, performer, participant', () => {
    expect(recordedAuthor(encounter)).toBe('Dr. Jimmie Harris');
    expect(recordedAuthor(resource({ resourceType: 'MedicationRequest', requester: { display: 'Dr. Lee' } }))).toBe(
      'Dr. Lee',
    );
    expect(
      recordedAuthor(resource({ resourceType: 'Immunization', performer: [{ actor: { display: 'Nurse Kay' } }] })),
    ).toBe('Nurse Kay');
    expect(
      recordedAuthor(resource({ resourceType: 'Observation', performer: [{ reference: 'Practitioner/x' }] })),
    ).toBe(undefined);
  });

  it('does not take the patient of an appointment for who held it', () => {
    const appointment = resource({
      resourceType: 'Appointment',
      participant: [
        { actor: { reference: 'Patient/p1', display: 'Wendy Littel' } },
        { actor: { reference: 'Practitioner/a', display: 'Dr. Alice Carter' } },
      ],
    });
    expect(recordedAuthor(appointment)).toBe('Dr. Alice Carter');
  });

  it('names the clinician of an imported record, and who wrote it here only as the last to change it', () => {
    expect(timelineByline(encounter, false)).toBe('Dr. Jimmie Harris · last changed by System');
    expect(timelineByline({ ...encounter, meta: { author: alice } }, true)).toBe(
      'Dr. Jimmie Harris · entered by Dr. Alice Carter',
    );
    expect(timelineByline({ ...encounter, meta: {} }, false)).toBe('Dr. Jimmie Harris');
  });

  it('says it once when the one who did it also wrote it', () => {
    const task = resource({ resourceType: 'Task', requester: alice, meta: { author: alice } });
    expect(timelineByline(task, false)).toBe('last changed by Dr. Alice Carter');
    expect(timelineByline(task, true)).toBe('Dr. Alice Carter');
  });

  it('names nobody for a message (its title names the sender) and only the writer for the patient record', () => {
    expect(
      timelineByline(resource({ resourceType: 'Communication', sender: alice, meta: { author: alice } }), true),
    ).toBe(undefined);
    expect(timelineByline(resource({ resourceType: 'Patient', meta: { author: system } }), true)).toBe('System');
  });
});
