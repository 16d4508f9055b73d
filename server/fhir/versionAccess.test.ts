import { describe, expect, it } from 'vitest';
import { http } from '../../tests/integration/fhirClient';
import { clinicWithPatientRegistration, registerPatient } from '../../tests/integration/patientAccounts';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/**
 * A result filed to the wrong patient and then moved: the patient it now belongs to reads it, but
 * not what it said while it was someone else's (vread and history used to judge every version by
 * the current one).
 */
describe('earlier versions of a resource moved between patients', () => {
  it('are hidden from the patient it was moved to; their own earlier versions are not', async () => {
    const owner = await clinicWithPatientRegistration('Moved Results Clinic');
    const staff = owner.tokens.access_token;
    const alice = await registerPatient(owner.projectId);
    const bob = await registerPatient(owner.projectId);

    const misfiled = await http<any>('POST', 'fhir/R4/Observation', {
      token: staff,
      body: {
        resourceType: 'Observation',
        status: 'final',
        code: { text: 'HIV viral load' },
        subject: { reference: bob.patient },
        valueString: 'Bob: detectable',
      },
    });
    const moved = await http<any>('PUT', `fhir/R4/Observation/${misfiled.body.id}`, {
      token: staff,
      body: { ...misfiled.body, subject: { reference: alice.patient }, valueString: 'Alice: not detectable' },
    });
    expect(moved.status).toBe(200);
    const [first, second] = [misfiled.body.meta.versionId, moved.body.meta.versionId];

    // Alice reads the result as it is now, current version by vread included.
    expect((await http<any>('GET', `fhir/R4/Observation/${misfiled.body.id}`, { token: alice.token })).status).toBe(
      200,
    );
    const current = await http<any>('GET', `fhir/R4/Observation/${misfiled.body.id}/_history/${second}`, {
      token: alice.token,
    });
    expect(current.body.valueString).toBe('Alice: not detectable');
    // Not Bob's version, by vread or in the history.
    const earlier = await http<any>('GET', `fhir/R4/Observation/${misfiled.body.id}/_history/${first}`, {
      token: alice.token,
    });
    expect(earlier.status).toBe(404);
    expect(JSON.stringify(earlier.body)).not.toContain('Bob: detectable');
    const history = await http<any>('GET', `fhir/R4/Observation/${misfiled.body.id}/_history`, {
      token: alice.token,
    });
    expect(history.status).toBe(200);
    expect(history.body.entry.map((entry: any) => entry.resource.meta.versionId)).toEqual([second]);
    const typeHistory = await http<any>('GET', 'fhir/R4/Observation/_history?_count=100', { token: alice.token });
    expect(JSON.stringify(typeHistory.body)).not.toContain('Bob: detectable');
    const systemHistory = await http<any>('GET', 'fhir/R4/_history?_count=100', { token: alice.token });
    expect(JSON.stringify(systemHistory.body)).not.toContain('Bob: detectable');
    // Bob no longer reads it at all (the current row is outside his compartment: 403, as for a read).
    const bobs = await http<any>('GET', `fhir/R4/Observation/${misfiled.body.id}/_history/${first}`, {
      token: bob.token,
    });
    expect(bobs.status).toBe(403);

    // The staff, whose policy does not depend on the patient, still see every version.
    const staffHistory = await http<any>('GET', `fhir/R4/Observation/${misfiled.body.id}/_history`, { token: staff });
    expect(staffHistory.body.entry.map((entry: any) => entry.resource.meta.versionId)).toEqual([second, first]);

    // A result that was always Alice's keeps its whole history for her.
    const own = await http<any>('POST', 'fhir/R4/Observation', {
      token: staff,
      body: {
        resourceType: 'Observation',
        status: 'preliminary',
        code: { text: 'Glucose' },
        subject: { reference: alice.patient },
        valueString: '5.1 mmol/L',
      },
    });
    const corrected = await http<any>('PUT', `fhir/R4/Observation/${own.body.id}`, {
      token: staff,
      body: { ...own.body, status: 'final' },
    });
    const ownHistory = await http<any>('GET', `fhir/R4/Observation/${own.body.id}/_history`, { token: alice.token });
    expect(ownHistory.body.entry.map((entry: any) => entry.resource.meta.versionId)).toEqual([
      corrected.body.meta.versionId,
      own.body.meta.versionId,
    ]);
    const ownFirst = await http<any>('GET', `fhir/R4/Observation/${own.body.id}/_history/${own.body.meta.versionId}`, {
      token: alice.token,
    });
    expect(ownFirst.body.status).toBe('preliminary');
  });
});
