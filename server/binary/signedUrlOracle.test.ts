import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, http } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { inviteMember } from '../admin/projectMembers.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/**
 * Issue 14 item 5: writing `Binary/<any id>` into an Attachment must not make the server hand out a
 * signed /storage URL (a read permission) for a Binary the caller cannot read.
 */
describe('signed Binary URLs are only given for Binaries the caller may read', () => {
  let clinic: Awaited<ReturnType<typeof registerProjectOwner>>;
  let attacker: Awaited<ReturnType<typeof registerProjectOwner>>;
  let secretId: string;

  const documentReference = (binaryId: string) => ({
    resourceType: 'DocumentReference',
    status: 'current',
    content: [{ attachment: { contentType: 'text/plain', url: `Binary/${binaryId}` } }],
  });

  beforeAll(async () => {
    clinic = await registerProjectOwner('Oracle Clinic');
    attacker = await registerProjectOwner('Oracle Attacker');
    const uploaded = await http<any>('POST', 'fhir/R4/Binary', {
      token: clinic.tokens.access_token,
      headers: { 'content-type': 'text/plain' },
      rawBody: 'clinic secret',
    });
    expect(uploaded.status).toBe(201);
    secretId = uploaded.body.id;
  });

  it("signs the clinic's own attachment for the clinic (the feature still works)", async () => {
    const created = await http<any>('POST', 'fhir/R4/DocumentReference', {
      token: clinic.tokens.access_token,
      body: documentReference(secretId),
    });
    expect(created.status).toBe(201);
    const url = created.body.content[0].attachment.url as string;
    expect(url).toMatch(/\/storage\//);
    expect(await (await fetch(url)).text()).toBe('clinic secret');
  });

  it("leaves another project's Binary unsigned, on write, read, search, batch and GraphQL", async () => {
    const token = attacker.tokens.access_token;
    const created = await http<any>('POST', 'fhir/R4/DocumentReference', { token, body: documentReference(secretId) });
    expect(created.status).toBe(201);
    expect(created.body.content[0].attachment.url).toBe(`Binary/${secretId}`);
    const read = await http<any>('GET', `fhir/R4/DocumentReference/${created.body.id}`, { token });
    expect(read.body.content[0].attachment.url).toBe(`Binary/${secretId}`);
    const search = await http<any>('GET', `fhir/R4/DocumentReference?_id=${created.body.id}`, { token });
    expect(search.body.entry[0].resource.content[0].attachment.url).toBe(`Binary/${secretId}`);
    const basic = await http<any>('POST', 'fhir/R4', {
      token,
      body: {
        resourceType: 'Bundle',
        type: 'batch',
        entry: [
          {
            request: { method: 'POST', url: 'Basic' },
            resource: {
              resourceType: 'Basic',
              code: { text: 'probe' },
              extension: [{ url: 'https://example.org/file', valueAttachment: { url: `Binary/${secretId}` } }],
            },
          },
        ],
      },
    });
    expect(basic.status).toBe(200);
    expect(JSON.stringify(basic.body)).not.toContain('/storage/');
    const graphql = await http<any>('POST', 'fhir/R4/$graphql', {
      token,
      body: { query: `{ DocumentReference(id: "${created.body.id}") { content { attachment { url } } } }` },
    });
    expect(graphql.body.data.DocumentReference.content[0].attachment.url).toBe(`Binary/${secretId}`);
    // And the id alone opens nothing.
    expect((await fetch(new URL(`storage/${secretId}`, baseUrl()))).status).toBe(403);
  });

  it("gives no signed url to another project's Binary carried in a Bundle the attacker stored", async () => {
    const token = attacker.tokens.access_token;
    const carrier = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [{ resource: { resourceType: 'Binary', id: secretId, contentType: 'text/plain' } }],
    };
    const created = await http<any>('POST', 'fhir/R4/Bundle', { token, body: carrier });
    expect(created.status).toBe(201);
    const read = await http<any>('GET', `fhir/R4/Bundle/${created.body.id}`, { token });
    const search = await http<any>('GET', `fhir/R4/Bundle?_id=${created.body.id}`, { token });
    for (const answer of [created, read, search]) {
      expect(answer.status).toBe(200 + (answer === created ? 1 : 0));
      expect(JSON.stringify(answer.body)).not.toContain('/storage/');
    }
    expect(read.body.entry[0].resource.url).toBeUndefined();
    // The clinic's own Binary in its own stored Bundle is still signed for the clinic.
    const own = await http<any>('POST', 'fhir/R4/Bundle', { token: clinic.tokens.access_token, body: carrier });
    const ownUrl = own.body.entry[0].resource.url as string;
    expect(ownUrl).toMatch(/\/storage\//);
    expect(await (await fetch(ownUrl)).text()).toBe('clinic secret');
  });

  it('a link opens the version it was signed for, never content written after it, and nothing once deleted', async () => {
    const token = clinic.tokens.access_token;
    const first = await http<any>('POST', 'fhir/R4/Binary', {
      token,
      headers: { 'content-type': 'text/plain' },
      rawBody: 'for patient A',
    });
    const id = first.body.id as string;
    const linkToFirst = first.body.url as string;
    // Replaced, e.g. refiled with another patient's scan: the old link must not open the new bytes.
    const replaced = await http<any>('PUT', `fhir/R4/Binary/${id}`, {
      token,
      headers: { 'content-type': 'text/plain' },
      rawBody: 'for patient B',
    });
    expect(replaced.status).toBe(200);
    const opened = await fetch(linkToFirst);
    expect(opened.status).toBe(200);
    expect(await opened.text()).toBe('for patient A');
    const current = await http<any>('GET', `fhir/R4/Binary/${id}`, { token });
    expect(await (await fetch(current.body.url)).text()).toBe('for patient B');
    // A signature for one version opens no other version of the same Binary.
    const swapped = new URL(current.body.url);
    swapped.pathname = swapped.pathname.replace(current.body.meta.versionId, first.body.meta.versionId);
    expect((await fetch(swapped)).status).toBe(403);
    // Deleted: its links stop working though the versions are kept for history.
    expect((await http('DELETE', `fhir/R4/Binary/${id}`, { token })).status).toBe(200);
    expect((await fetch(current.body.url)).status).toBe(410);
    expect((await fetch(linkToFirst)).status).toBe(410);
  });

  it('leaves a Binary unsigned for a member whose policy hides Binary, in their own project', async () => {
    const frontDesk = await inviteMember(clinic.tokens.access_token, clinic.projectId, {
      policy: { resource: [{ resourceType: 'DocumentReference' }, { resourceType: 'Patient' }] },
    });
    // Written by the member, and written by the admin then read by the member: never signed.
    const own = await http<any>('POST', 'fhir/R4/DocumentReference', {
      token: frontDesk.token,
      body: documentReference(secretId),
    });
    expect(own.status).toBe(201);
    expect(own.body.content[0].attachment.url).toBe(`Binary/${secretId}`);
    const byAdmin = await http<any>('POST', 'fhir/R4/DocumentReference', {
      token: clinic.tokens.access_token,
      body: documentReference(secretId),
    });
    const read = await http<any>('GET', `fhir/R4/DocumentReference/${byAdmin.body.id}`, { token: frontDesk.token });
    expect(read.status).toBe(200);
    expect(read.body.content[0].attachment.url).toBe(`Binary/${secretId}`);
    // The admin reading the same record still gets the working link.
    const adminRead = await http<any>('GET', `fhir/R4/DocumentReference/${byAdmin.body.id}`, {
      token: clinic.tokens.access_token,
    });
    expect(adminRead.body.content[0].attachment.url).toMatch(/\/storage\//);
  });
});
