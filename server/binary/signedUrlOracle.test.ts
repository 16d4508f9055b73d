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
