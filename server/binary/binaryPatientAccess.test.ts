import { describe, expect, it } from 'vitest';
import { baseUrl, http } from '../../tests/integration/fhirClient';
import { clinicWithPatientRegistration, registerPatient } from '../../tests/integration/patientAccounts';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/** What the chat's paperclip does: a Media about the patient, then its file with the Media as security context. */
async function shareFile(staffToken: string, patient: string, text: string) {
  const media = await http<any>('POST', 'fhir/R4/Media', {
    token: staffToken,
    body: {
      resourceType: 'Media',
      status: 'completed',
      subject: { reference: patient },
      content: { contentType: 'text/plain' },
    },
  });
  const response = await fetch(new URL('fhir/R4/Binary', baseUrl()), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${staffToken}`,
      'content-type': 'text/plain',
      'x-security-context': `Media/${media.body.id}`,
      accept: 'application/fhir+json',
    },
    body: text,
  });
  const binary = await response.json();
  const updated = await http<any>('PUT', `fhir/R4/Media/${media.body.id}`, {
    token: staffToken,
    body: { ...media.body, content: { contentType: 'text/plain', url: `Binary/${binary.id}`, title: 'note.txt' } },
  });
  return { binaryId: binary.id as string, mediaId: media.body.id as string, media: updated.body };
}

describe('a patient opens the files of their own record through the security context', () => {
  it('reads the Binary of a Media about them (signed URL included), never another patient’s', async () => {
    const owner = await clinicWithPatientRegistration();
    const alice = await registerPatient(owner.projectId);
    const bob = await registerPatient(owner.projectId);
    const forAlice = await shareFile(owner.tokens.access_token, alice.patient, 'for Alice only');
    const forBob = await shareFile(owner.tokens.access_token, bob.patient, 'for Bob only');

    const own = await fetch(new URL(`fhir/R4/Binary/${forAlice.binaryId}`, baseUrl()), {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(own.status).toBe(200);
    expect(await own.text()).toBe('for Alice only');

    // The Media she reads carries a signed URL that works without a token (an <img src>).
    const media = await http<any>('GET', `fhir/R4/Media/${forAlice.mediaId}`, { token: alice.token });
    expect(media.body.content.url).toMatch(/\/storage\//);
    const signed = await fetch(media.body.content.url);
    expect(await signed.text()).toBe('for Alice only');

    // The attack: Alice asks for Bob's file by id, and for his Media's signed URL.
    const foreign = await fetch(new URL(`fhir/R4/Binary/${forBob.binaryId}`, baseUrl()), {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect([403, 404]).toContain(foreign.status);
    expect(await foreign.text()).not.toContain('for Bob only');
    const search = await http<any>('GET', `fhir/R4/Binary?_id=${forBob.binaryId},${forAlice.binaryId}`, {
      token: alice.token,
    });
    expect((search.body.entry ?? []).map((e: any) => e.resource.id)).toEqual([forAlice.binaryId]);
  });

  it('a patient cannot pull a Binary into their compartment by naming another patient’s context', async () => {
    const owner = await clinicWithPatientRegistration();
    const alice = await registerPatient(owner.projectId);
    const bob = await registerPatient(owner.projectId);
    const forBob = await shareFile(owner.tokens.access_token, bob.patient, 'for Bob only');
    const upload = await fetch(new URL('fhir/R4/Binary', baseUrl()), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${alice.token}`,
        'content-type': 'text/plain',
        'x-security-context': `Media/${forBob.mediaId}`,
        accept: 'application/fhir+json',
      },
      body: 'planted',
    });
    expect(upload.status).toBe(403);
    // Bob's file is still only his.
    const foreign = await fetch(new URL(`fhir/R4/Binary/${forBob.binaryId}`, baseUrl()), {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect([403, 404]).toContain(foreign.status);
  });
});
