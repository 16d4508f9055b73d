import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { http, issueExpressions, issueText } from '../../tests/integration/fhirClient';

async function waitForJob(
  url: string,
): Promise<{ status: string; output?: { parameter: { name: string; valueInteger?: number }[] } }> {
  for (let attempt = 0; attempt < 120; attempt++) {
    const job = await http<{ status: string; output?: { parameter: { name: string; valueInteger?: number }[] } }>(
      'GET',
      url,
    );
    if (job.body.status === 'completed' || job.body.status === 'error') return job.body;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('reindex job did not finish');
}

describe('an implementer adds a SearchParameter at runtime', () => {
  it('takes effect for new writes at once, and for old ones after $reindex', async () => {
    const code = `nick${randomUUID().slice(0, 6)}`;
    const nickname = `Zed${randomUUID().slice(0, 6)}`;
    const patient = (given: string) => ({
      resourceType: 'Patient',
      name: [
        { use: 'nickname', given: [given] },
        { use: 'official', family: 'Official' },
      ],
    });

    const before = await http<{ id: string }>('POST', 'fhir/R4/Patient', { body: patient(nickname) });
    expect((await http('GET', `fhir/R4/Patient?${code}=${nickname}`)).status).toBe(400);

    const parameter = await http<{ id: string }>('POST', 'fhir/R4/SearchParameter', {
      body: {
        resourceType: 'SearchParameter',
        url: `http://example.org/SearchParameter/${code}`,
        name: code,
        status: 'active',
        description: 'Nickname',
        code,
        base: ['Patient'],
        type: 'string',
        expression: "Patient.name.where(use = 'nickname').given",
      },
    });
    expect(parameter.status).toBe(201);

    const after = await http<{ id: string }>('POST', 'fhir/R4/Patient', { body: patient(nickname) });
    const fresh = await http<{ total: number; entry: { resource: { id: string } }[] }>(
      'GET',
      `fhir/R4/Patient?${code}=${nickname}&_total=accurate`,
    );
    expect(fresh.status).toBe(200);
    // The Patient written before may be there too: the project's resources are indexed for a new
    // SearchParameter in the background (searchParameterIndexing.ts).
    expect(fresh.body.entry.map((e) => e.resource.id)).toContain(after.body.id);
    // "Official" is a name, but not a nickname.
    expect((await http<{ total: number }>('GET', `fhir/R4/Patient?${code}=Official&_total=accurate`)).body.total).toBe(
      0,
    );

    const started = await http('POST', 'fhir/R4/$reindex?resourceType=Patient');
    expect(started.status).toBe(202);
    const location = started.headers.get('content-location') as string;
    expect(location).toMatch(/fhir\/R4\/AsyncJob\/[0-9a-f-]+$/);
    const job = await waitForJob(location);
    expect(job.status).toBe('completed');
    expect(job.output?.parameter.find((p) => p.name === 'count')?.valueInteger).toBeGreaterThanOrEqual(2);

    const backfilled = await http<{ entry: { resource: { id: string } }[] }>(
      'GET',
      `fhir/R4/Patient?${code}=${nickname}&_sort=_lastUpdated`,
    );
    expect(backfilled.body.entry.map((e) => e.resource.id).sort()).toEqual([before.body.id, after.body.id].sort());

    const metadata = await http<{ rest: { resource: { type: string; searchParam: { name: string }[] }[] }[] }>(
      'GET',
      'fhir/R4/metadata',
    );
    const patientParams = metadata.body.rest[0].resource.find((r) => r.type === 'Patient')!.searchParam;
    expect(patientParams.map((p) => p.name)).toContain(code);

    expect((await http('DELETE', `fhir/R4/SearchParameter/${parameter.body.id}`)).status).toBe(200);
    const gone = await http('GET', `fhir/R4/Patient?${code}=${nickname}`);
    expect(gone.status).toBe(400);
    expect(issueText(gone.body)).toContain(`Unknown search parameter "${code}"`);
  });

  it('refuses a SearchParameter whose expression does not compile, and changes nothing', async () => {
    const code = `bad${randomUUID().slice(0, 6)}`;
    const answer = await http('POST', 'fhir/R4/SearchParameter', {
      body: {
        resourceType: 'SearchParameter',
        url: 'http://example.org/sp/bad',
        name: code,
        status: 'active',
        description: 'Bad',
        code,
        base: ['Patient'],
        type: 'string',
        expression: 'Patient.name.where(',
      },
    });
    expect(answer.status).toBe(400);
    expect(issueExpressions(answer.body)).toContain('SearchParameter.expression');
    expect((await http('GET', `fhir/R4/Patient?${code}=x`)).status).toBe(400);
    const unknownBase = await http('POST', 'fhir/R4/SearchParameter', {
      body: {
        resourceType: 'SearchParameter',
        url: 'http://example.org/sp/x',
        name: 'x',
        status: 'active',
        description: 'x',
        code: 'x',
        base: ['Nope'],
        type: 'string',
        expression: 'Patient.name',
      },
    });
    expect(unknownBase.status).toBe(400);
  });

  it('refuses $reindex of an unknown type', async () => {
    const answer = await http('POST', 'fhir/R4/$reindex?resourceType=Nope');
    expect(answer.status).toBe(400);
    expect(issueText(answer.body)).toBe('Unknown resource type "Nope"');
  });
});
