import { request as httpRequest } from 'node:http';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { baseUrl, http, issueText } from '../../tests/integration/fhirClient';

interface Res {
  resourceType: string;
  id: string;
  [key: string]: unknown;
}

/** A GET sent with no Accept header at all (fetch would add `*\/*`). */
function getWithoutAccept(path: string, token: string): Promise<{ status: number; type: string | undefined }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(new URL(path, baseUrl()), { headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** FHIR R4 http.html §3.1.0.1.10: `_format` and Accept; this server speaks JSON only. */
describe('_format and Accept', () => {
  let patient: Res;

  beforeAll(async () => {
    const created = await http<Res>('POST', 'fhir/R4/Patient', {
      body: { resourceType: 'Patient', name: [{ family: 'Format' }] },
    });
    expect(created.status).toBe(201);
    patient = created.body;
  });

  it('answers JSON for the JSON _format values', async () => {
    for (const format of ['json', 'application/json', 'application/fhir%2Bjson', 'application/fhir+json']) {
      const read = await http<Res>('GET', `fhir/R4/Patient/${patient.id}?_format=${format}`);
      expect(read.status, format).toBe(200);
      expect(read.body).toEqual(patient);
      expect(read.headers.get('content-type')).toContain('application/fhir+json');
    }
    const search = await http<Res>('GET', `fhir/R4/Patient?_id=${patient.id}&_format=json`);
    expect(search.status).toBe(200);
  });

  it('answers 406 with an OperationOutcome for _format=xml, on reads, searches, writes, operations and metadata', async () => {
    const urls: [string, string][] = [
      ['GET', `fhir/R4/Patient/${patient.id}?_format=xml`],
      [
        'GET',
        `fhir/R4/Patient/${patient.id}/_history/${(patient.meta as { versionId: string }).versionId}?_format=xml`,
      ],
      ['GET', 'fhir/R4/Patient?_format=application/fhir%2Bxml'],
      ['GET', `fhir/R4/Patient/${patient.id}/$everything?_format=xml`],
      ['GET', 'fhir/R4/metadata?_format=xml'],
      ['PUT', `fhir/R4/Patient?_id=${patient.id}&_format=xml`],
    ];
    for (const [method, url] of urls) {
      const answer = await http<Res>(method, url, method === 'PUT' ? { body: patient } : {});
      expect(answer.status, url).toBe(406);
      expect(answer.body.resourceType).toBe('OperationOutcome');
      expect(issueText(answer.body)).toContain('XML is not supported');
    }
  });

  it('answers 406 to an Accept of XML only, and JSON when JSON is acceptable too', async () => {
    const read = (accept: string) => http<Res>('GET', `fhir/R4/Patient/${patient.id}`, { headers: { accept } });
    const xml = await read('application/fhir+xml');
    expect(xml.status).toBe(406);
    expect(issueText(xml.body)).toContain('XML is not supported');
    const created = await http<Res>('POST', 'fhir/R4/Patient', {
      body: { resourceType: 'Patient' },
      headers: { accept: 'application/xml' },
    });
    expect(created.status).toBe(406);
    expect((await http('GET', 'fhir/R4/metadata', { headers: { accept: 'application/fhir+xml' } })).status).toBe(406);

    for (const accept of [
      '*/*',
      'application/json',
      'application/fhir+xml, application/fhir+json;q=0.5',
      'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    ]) {
      const answer = await read(accept);
      expect(answer.status, accept).toBe(200);
      expect(answer.body).toEqual(patient);
    }
    // _format wins over Accept.
    const overridden = await http<Res>('GET', `fhir/R4/Patient/${patient.id}?_format=json`, {
      headers: { accept: 'application/fhir+xml' },
    });
    expect(overridden.status).toBe(200);
  });

  it('answers JSON to a request with no Accept header', async () => {
    const answer = await getWithoutAccept(`/fhir/R4/Patient/${patient.id}`, inject('adminToken'));
    expect(answer.status).toBe(200);
    expect(answer.type).toContain('application/fhir+json');
  });

  it('says in the CapabilityStatement that it speaks JSON only', async () => {
    const statement = await http<{ format: string[] }>('GET', 'fhir/R4/metadata');
    expect(statement.body.format).toEqual(['application/fhir+json', 'json']);
    expect(statement.body.format.some((format) => format.includes('xml'))).toBe(false);
  });
});
