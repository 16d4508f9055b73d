import { beforeAll, describe, expect, it } from 'vitest';
import { http } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { registerPatient } from '../../tests/integration/patientAccounts';
import { patientPortalPolicy } from './patientPortalPolicy';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

const chatSubscription = (criteria: string) => ({
  resourceType: 'Subscription',
  status: 'active',
  reason: 'Live chat',
  criteria,
  channel: { type: 'websocket' },
});

describe('the demo patient portal policy', () => {
  let alice: Awaited<ReturnType<typeof registerPatient>>;
  let bob: Awaited<ReturnType<typeof registerPatient>>;

  beforeAll(async () => {
    const owner = await registerProjectOwner('Portal Policy Clinic');
    const token = owner.tokens.access_token;
    const policy = await http<any>('POST', 'fhir/R4/AccessPolicy', { token, body: patientPortalPolicy });
    expect(policy.status).toBe(201);
    const project = await http<any>('GET', `fhir/R4/Project/${owner.projectId}`, { token });
    await http('PUT', `fhir/R4/Project/${owner.projectId}`, {
      token,
      body: { ...project.body, defaultPatientAccessPolicy: { reference: `AccessPolicy/${policy.body.id}` } },
    });
    alice = await registerPatient(owner.projectId);
    bob = await registerPatient(owner.projectId);
  });

  it('lets a patient watch their own conversation, as the portal does', async () => {
    const created = await http<any>('POST', 'fhir/R4/Subscription', {
      token: alice.token,
      body: chatSubscription(`Communication?subject=${alice.patient}`),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const read = await http<any>('GET', `fhir/R4/Subscription/${created.body.id}`, { token: alice.token });
    expect(read.status).toBe(200);
  });

  it("refuses criteria that only start with the patient's own (another patient's messages added)", async () => {
    // A string search matches a prefix: without :exact this Subscription was allowed.
    for (const criteria of [
      `Communication?subject=${alice.patient},${bob.patient}`,
      `Communication?subject=${alice.patient}&_has:Communication:part-of:subject=${bob.patient}`,
      `Communication?subject=${bob.patient}`,
    ]) {
      const created = await http<any>('POST', 'fhir/R4/Subscription', {
        token: alice.token,
        body: chatSubscription(criteria),
      });
      expect(created.status, criteria).toBe(403);
    }
  });
});
