import { describe, expect, it } from 'vitest';
import { http } from '../../tests/integration/fhirClient';

interface Res {
  resourceType: string;
  id: string;
  meta: { versionId: string; lastUpdated: string };
  [key: string]: unknown;
}

/**
 * A read by id may hand over the stored JSON text unchanged (RepositorySession.readForAnswer,
 * issue 20): what the client receives must be exactly what the parsed path gives — the same
 * resource, ETag and Last-Modified — and never a secret the parsed path would strip.
 */
describe('read by id answered from the stored JSON', () => {
  const searchEntry = async (type: string, id: string) => {
    const bundle = await http<{ entry: { resource: Res }[] }>('GET', `fhir/R4/${type}?_id=${id}`);
    expect(bundle.body.entry).toHaveLength(1);
    return bundle.body.entry[0].resource;
  };

  it('answers the same resource and headers as the parsed path (a search of the same row)', async () => {
    const created = await http<Res>('POST', 'fhir/R4/Patient', {
      body: {
        resourceType: 'Patient',
        name: [{ family: 'Stored', given: ['Jo, "Quoted"'] }],
        birthDate: '1970-01-01',
        // Text that needs escaping in JSON, and characters beyond ASCII.
        address: [{ text: 'Line 1\nLine 2 \\ Zürich ☕' }],
      },
    });
    expect(created.status).toBe(201);
    const read = await http<Res>('GET', `fhir/R4/Patient/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toContain('application/fhir+json');
    expect(read.body).toEqual(created.body);
    expect(read.body).toEqual(await searchEntry('Patient', created.body.id));
    expect(read.headers.get('etag')).toBe(`W/"${created.body.meta.versionId}"`);
    expect(read.headers.get('last-modified')).toBe(new Date(created.body.meta.lastUpdated).toUTCString());
    // Key order as stored, as on every other answer (the console's loss-free round trip relies on it).
    expect(Object.keys(read.body)).toEqual(Object.keys(await searchEntry('Patient', created.body.id)));
  });

  it("never hands over the server's secrets: a User read by id has no password hash", async () => {
    const users = await http<{ entry: { resource: Res }[] }>('GET', 'fhir/R4/User?email=admin@example.com');
    const id = users.body.entry[0].resource.id;
    const read = await http<Res>('GET', `fhir/R4/User/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.email).toBe('admin@example.com');
    expect(read.body).not.toHaveProperty('passwordHash');
    expect(read.body).not.toHaveProperty('mfaSecret');
  });

  it('answers 404 and 410 as before for a missing and a deleted resource', async () => {
    const created = await http<Res>('POST', 'fhir/R4/Observation', {
      body: { resourceType: 'Observation', status: 'final', code: { text: 'Gone soon' } },
    });
    expect((await http('GET', `fhir/R4/Observation/${created.body.id}`)).status).toBe(200);
    expect((await http('DELETE', `fhir/R4/Observation/${created.body.id}`)).status).toBe(200);
    expect((await http('GET', `fhir/R4/Observation/${created.body.id}`)).status).toBe(410);
    expect((await http('GET', 'fhir/R4/Observation/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});
