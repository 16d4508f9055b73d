import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { searchLimits } from './searchLimits';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/**
 * Searches a member can make cost the server (and, on the embedded database, every other caller)
 * more than their bytes: each value of a parameter is an OR-ed condition with its own SQL
 * parameters, each filter an EXISTS, each sort key a subquery per matching row, each include rule a
 * statement per round. `POST {type}/_search` carries as much of that as the body limit allows.
 * Each is now refused with 400 naming the parameter before any SQL is built.
 */
describe('search cost limits', () => {
  let owner: Awaited<ReturnType<typeof registerProjectOwner>>;
  const search = (type: string, params: [string, string][] | string, token = owner.tokens.access_token) =>
    http<any>('POST', `fhir/R4/${type}/_search`, {
      token,
      rawBody: typeof params === 'string' ? params : new URLSearchParams(params).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const refused = (answer: { status: number; body: any }, parameter: string, text: RegExp) => {
    expect(answer.status).toBe(400);
    expect(answer.body.issue[0].code).toBe('too-costly');
    expect(issueExpressions(answer.body)).toEqual([parameter]);
    expect(issueText(answer.body)).toMatch(text);
  };

  beforeAll(async () => {
    owner = await registerProjectOwner('Search costs');
  });

  it('70,000 values of one parameter answered 500 (too many SQL parameters); now 400', async () => {
    const names = Array.from({ length: 70_000 }, (_, i) => `n${i}`).join(',');
    refused(await search('Patient', [['name', names]]), 'name', /at most/);
  });

  it('refuses more values than the limit in one parameter, and in all of them', async () => {
    const values = (count: number) => Array.from({ length: count }, (_, i) => `v${i}`).join(',');
    refused(
      await search('Patient', [['family', values(searchLimits.maxValuesPerParameter + 1)]]),
      'family',
      new RegExp(`at most ${searchLimits.maxValuesPerParameter} values`),
    );
    const perParameter = Math.ceil((searchLimits.maxValues + 1) / 10);
    const many = Array.from({ length: 10 }, (): [string, string] => ['family', values(perParameter)]);
    refused(await search('Patient', many), 'family', new RegExp(`at most ${searchLimits.maxValues} values`));
    expect((await search('Patient', [['family', values(searchLimits.maxValuesPerParameter)]])).status).toBe(200);
  });

  it('refuses more filters, sort keys, include rules and elements than the limits', async () => {
    const filters = Array.from({ length: searchLimits.maxFilters + 1 }, (): [string, string] => ['name', 'x']);
    refused(await search('Patient', filters), 'name', /at most \d+ search parameters/);
    const filtersThroughFilter = Array.from({ length: searchLimits.maxFilters + 1 }, () => 'name co x').join(' and ');
    refused(await search('Patient', [['_filter', filtersThroughFilter]]), '_filter', /search parameters/);
    const sort = Array.from({ length: searchLimits.maxSortKeys + 1 }, () => 'birthdate').join(',');
    refused(await search('Patient', [['_sort', sort]]), '_sort', /keys/);
    const includes = Array.from({ length: searchLimits.maxIncludeRules + 1 }, (): [string, string] => [
      '_revinclude',
      'Observation:subject',
    ]);
    refused(await search('Patient', includes), '_revinclude', /rules/);
    const elements = Array.from({ length: searchLimits.maxElements + 1 }, (_, i) => `e${i}`).join(',');
    refused(await search('Patient', [['_elements', elements]]), '_elements', /elements/);
  });

  it('refuses a value longer than the limit (a 10 kB value is still searched: longValues.test.ts)', async () => {
    refused(
      await search('Patient', [['name:contains', 'x'.repeat(searchLimits.maxValueLength + 1)]]),
      'name:contains',
      /characters long/,
    );
    expect((await search('Patient', [['name:contains', 'x'.repeat(10_000)]])).status).toBe(200);
  });

  it('batch entries and conditional criteria are held to the same limits', async () => {
    const names = Array.from({ length: 70_000 }, (_, i) => `n${i}`).join(',');
    const batch = await http<any>('POST', 'fhir/R4', {
      token: owner.tokens.access_token,
      body: {
        resourceType: 'Bundle',
        type: 'batch',
        entry: [{ request: { method: 'GET', url: `Patient?name=${names}` } }],
      },
    });
    expect(batch.status).toBe(200);
    expect(batch.body.entry[0].response.status).toBe('400');
    const conditional = await http<any>('POST', 'fhir/R4/Patient', {
      token: owner.tokens.access_token,
      headers: { 'if-none-exist': `name=${Array.from({ length: 2_000 }, (_, i) => `n${i}`).join(',')}` },
      body: { resourceType: 'Patient' },
    });
    expect(conditional.status).toBe(400);
  });

  it('a system search pages through its first matches only: _offset loaded every resource into memory', async () => {
    const answer = await http<any>('GET', 'fhir/R4?_type=Patient,Observation&_offset=1000000&_count=10', {
      token: owner.tokens.access_token,
    });
    refused(answer, '_offset', /system search/);
    const first = await http<any>('GET', 'fhir/R4?_type=Patient,Observation&_count=10', {
      token: owner.tokens.access_token,
    });
    expect(first.status).toBe(200);
  });
});

describe('uri :above compares the stored value as text, not as a LIKE pattern', () => {
  it("a stored URL's _ and % no longer match any character", async () => {
    const owner = await registerProjectOwner('Above patterns');
    const stamp = randomUUID().slice(0, 8);
    const create = async (url: string) =>
      (
        await http<any>('POST', 'fhir/R4/ValueSet', {
          token: owner.tokens.access_token,
          body: { resourceType: 'ValueSet', status: 'active', url },
        })
      ).body.id as string;
    const parent = await create(`http://example.org/${stamp}/vs`);
    await create(`http://example.org/${stamp}/v_`);
    await create(`http://example.org/${stamp}/%`);
    const answer = await http<any>(
      'GET',
      `fhir/R4/ValueSet?url:above=${encodeURIComponent(`http://example.org/${stamp}/vs/child`)}`,
      { token: owner.tokens.access_token },
    );
    expect(answer.status).toBe(200);
    expect(((answer.body.entry ?? []) as any[]).map((e) => e.resource.id)).toEqual([parent]);
  });
});

describe('search parameters, modifiers, sort keys and prefixes reach SQL only as bound values', () => {
  it('answers 400 or an empty page, never 500, and the data is still there', async () => {
    const owner = await registerProjectOwner('Injection probes');
    const token = owner.tokens.access_token;
    const created = await http<any>('POST', 'fhir/R4/Patient', {
      token,
      body: { resourceType: 'Patient', name: [{ family: 'Probe' }] },
    });
    expect(created.status).toBe(201);
    const payload = "x') OR 1=1; DROP TABLE resources; --";
    const probes = [
      `name=${payload}`,
      `name:contains=${payload}%25_`,
      `name:${payload}=x`,
      `${payload}=x`,
      `_sort=${payload}`,
      `_sort=-name,${payload}`,
      `birthdate=ge${payload}`,
      `birthdate=${payload}`,
      `general-practitioner:Practitioner.name=${payload}`,
      `general-practitioner:${payload}.name=x`,
      `_has:Observation:subject:code=${payload}`,
      `_has:${payload}:subject:code=x`,
      `_include=Patient:${payload}`,
      `_revinclude=Observation:subject:${payload}`,
      `_filter=name eq "${payload}"`,
      `_filter=${payload}`,
      `identifier=${payload}|${payload}`,
      `_compartment=${payload}`,
      `_elements=${payload}`,
      `_total=${payload}`,
      `_count=${payload}`,
      `_id=${payload}`,
      `_lastUpdated=gt${payload}`,
    ];
    for (const probe of probes) {
      const [key, value] = [probe.slice(0, probe.indexOf('=')), probe.slice(probe.indexOf('=') + 1)];
      const answer = await http<any>('GET', `fhir/R4/Patient?${new URLSearchParams([[key, value]]).toString()}`, {
        token,
      });
      expect([200, 400], probe).toContain(answer.status);
      // Only filters narrow the page; `_elements` shapes it.
      if (answer.status === 200 && key !== '_elements') expect(answer.body.entry ?? [], probe).toEqual([]);
    }
    const after = await http<any>('GET', `fhir/R4/Patient/${created.body.id}`, { token });
    expect(after.status).toBe(200);
  });
});
