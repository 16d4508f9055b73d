import { describe, expect, it } from 'vitest';
import { http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { defaultResourceLimits as limits } from './resourceLimits';
import {
  bytesAtLimit,
  elementsAtLimit,
  everyLimitAtOnce,
  indexValuesAtLimit,
  manyNames,
  marker,
  stringAtLimit,
} from './resourceLimits.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/**
 * The outside tester's denial of service, replayed over HTTP: one self-registered user's Patient
 * with 200,000 names was stored after 108 s while every other project's requests waited. Now each
 * resource has limits (RESOURCE_MAX_*, validation/resourceLimits.ts) and what passes one is refused
 * with 413 before anything is stored; what is exactly at a limit is stored. No timings are asserted
 * (tests/bench/resourceLimitsBenchmark.ts measures them).
 */
describe('one resource may not cost the server more than its limits (413)', () => {
  it("refuses the tester's Patient with 200,000 names from a self-registered project, storing nothing", async () => {
    const owner = await registerProjectOwner();
    const family = marker();
    const answer = await http('POST', 'fhir/R4/Patient', {
      body: manyNames(200_000, family),
      token: owner.tokens.access_token,
    });
    expect(answer.status).toBe(413);
    expect(issueText(answer.body)).toBe(
      'Patient has more than 100000 elements (JSON values); at most 100000 are allowed (RESOURCE_MAX_ELEMENTS)',
    );
    expect(issueExpressions(answer.body)).toEqual(['Patient.name[49998].family']);
    const found = await http<any>('GET', `fhir/R4/Patient?family=0${family}&_total=accurate`, {
      token: owner.tokens.access_token,
    });
    expect(found.body.total).toBe(0);
  });

  it('refuses one in an update, a patch, a transaction (whole) and a batch (that entry only)', async () => {
    const family = marker();
    const created = await http<any>('POST', 'fhir/R4/Patient', {
      body: { resourceType: 'Patient', name: [{ family }] },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;

    const put = await http('PUT', `fhir/R4/Patient/${id}`, { body: { ...manyNames(60_000, family), id } });
    expect(put.status).toBe(413);
    expect(issueExpressions(put.body)).toEqual(['Patient.name[49998].family']);

    // The patch itself is small; the patched resource is what is too large.
    const patch = await http('PATCH', `fhir/R4/Patient/${id}`, {
      headers: { 'content-type': 'application/json-patch+json' },
      body: [{ op: 'add', path: '/name', value: manyNames(6_000, family).name }],
    });
    expect(patch.status).toBe(413);
    expect(issueText(patch.body)).toContain('RESOURCE_MAX_INDEX_VALUES');
    const read = await http<any>('GET', `fhir/R4/Patient/${id}`);
    expect(read.body.name).toEqual([{ family }]);

    const transaction = await http('POST', 'fhir/R4', {
      body: {
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [
          {
            request: { method: 'POST', url: 'Patient' },
            resource: { resourceType: 'Patient', name: [{ family: `t${family}` }] },
          },
          { request: { method: 'POST', url: 'Patient' }, resource: manyNames(60_000, family) },
        ],
      },
    });
    expect(transaction.status).toBe(413);
    expect(issueExpressions(transaction.body)).toEqual(['Bundle.entry[1].resource.name[49998].family']);
    const none = await http<any>('GET', `fhir/R4/Patient?family=t${family}&_total=accurate`);
    expect(none.body.total).toBe(0);

    const batch = await http<any>('POST', 'fhir/R4', {
      body: {
        resourceType: 'Bundle',
        type: 'batch',
        entry: [
          { request: { method: 'POST', url: 'Patient' }, resource: manyNames(60_000, family) },
          {
            request: { method: 'POST', url: 'Patient' },
            resource: { resourceType: 'Patient', name: [{ family: `b${family}` }] },
          },
        ],
      },
    });
    expect(batch.status).toBe(200);
    expect(batch.body.entry.map((entry: any) => entry.response.status)).toEqual(['413', '201']);
    expect(issueExpressions(batch.body.entry[0].response.outcome)).toEqual([
      'Bundle.entry[0].resource.name[49998].family',
    ]);

    await http('DELETE', `fhir/R4/Patient/${id}`);
    await http('DELETE', `fhir/R4/${String(batch.body.entry[1].response.location).split('/_history')[0]}`);
  });

  it('refuses a string longer than FHIR allows, too much inline data and too many index values, naming the path', async () => {
    const longName = await http('POST', 'fhir/R4/Patient', {
      body: { resourceType: 'Patient', name: [{ family: 'x'.repeat(limits.maxStringLength + 1) }] },
    });
    expect(longName.status).toBe(413);
    expect(issueText(longName.body)).toContain('RESOURCE_MAX_STRING_LENGTH');
    expect(issueExpressions(longName.body)).toEqual(['Patient.name[0].family']);

    // 6 MB of inline data: a 500 (a stack overflow in the base64 check) before the limits.
    const data = await http('POST', 'fhir/R4/DocumentReference', {
      body: {
        resourceType: 'DocumentReference',
        status: 'current',
        content: [{ attachment: { contentType: 'text/plain', data: 'QUJD'.repeat(1_500_000) } }],
      },
    });
    expect(data.status).toBe(413);
    expect(issueText(data.body)).toContain('RESOURCE_MAX_BYTES');
    expect(issueExpressions(data.body)).toEqual(['DocumentReference.content[0].attachment.data']);

    // 6,666 codings: each gives `code` and `combo-code` values.
    const codings = Array.from({ length: 6_666 }, (_, i) => ({ system: 'http://loinc.org', code: `${i}-1` }));
    const observation = await http('POST', 'fhir/R4/Observation', {
      body: { resourceType: 'Observation', status: 'final', code: { coding: codings } },
    });
    expect(observation.status).toBe(413);
    expect(issueText(observation.body)).toContain('RESOURCE_MAX_INDEX_VALUES');
    // The search parameter's own expression.
    expect(issueExpressions(observation.body)).toEqual(['Observation.code | Observation.component.code']);
  });

  it('stores a resource exactly at each limit, and all of them at once', async () => {
    const family = marker();
    const atLimits: Record<string, any> = {
      indexValues: indexValuesAtLimit(limits, family),
      elements: elementsAtLimit(limits),
      bytes: bytesAtLimit(limits),
      string: stringAtLimit(limits),
      all: everyLimitAtOnce(limits, `a${family}`),
    };
    for (const [name, resource] of Object.entries(atLimits)) {
      const created = await http<any>('POST', `fhir/R4/${resource.resourceType}`, { body: resource });
      expect({ name, status: created.status }).toEqual({ name, status: 201 });
      const read = await http<any>('GET', `fhir/R4/${resource.resourceType}/${created.body.id}`);
      const { id: _id, meta: _meta, ...content } = read.body;
      expect(content).toEqual(resource);
      await http('DELETE', `fhir/R4/${resource.resourceType}/${created.body.id}`);
    }
  });

  it('finds a resource stored at the index limit by its last indexed value', async () => {
    const family = marker();
    const resource = indexValuesAtLimit(limits, family);
    const created = await http<any>('POST', 'fhir/R4/Patient', { body: resource });
    expect(created.status).toBe(201);
    const last = resource.name.at(-1).family as string;
    const found = await http<any>('GET', `fhir/R4/Patient?family:exact=${last}&_total=accurate`);
    expect(found.body.total).toBe(1);
    await http('DELETE', `fhir/R4/Patient/${created.body.id}`);
  });
});

describe('Attachment.url: http(s), urn: or a Binary reference (400 otherwise)', () => {
  const document = (url: string) => ({
    resourceType: 'DocumentReference',
    status: 'current',
    content: [{ attachment: { contentType: 'application/pdf', title: 'Scan.pdf', url } }],
  });

  it.each(['javascript:alert(document.domain)', 'data:text/html,<script>alert(1)</script>', ' JavaScript:alert(1)'])(
    'refuses %s, naming the path',
    async (url) => {
      const answer = await http('POST', 'fhir/R4/DocumentReference', { body: document(url) });
      expect(answer.status).toBe(400);
      expect(issueExpressions(answer.body)).toContain('DocumentReference.content[0].attachment.url');
      expect(JSON.stringify(answer.body)).toContain('An Attachment url may not use the');
    },
  );

  it('refuses it in a transaction entry, a patch and an extension', async () => {
    const transaction = await http('POST', 'fhir/R4', {
      body: {
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [{ request: { method: 'POST', url: 'DocumentReference' }, resource: document('javascript:alert(1)') }],
      },
    });
    expect(transaction.status).toBe(400);
    expect(issueExpressions(transaction.body)).toContain('Bundle.entry[0].resource.content[0].attachment.url');

    const created = await http<any>('POST', 'fhir/R4/Patient', { body: { resourceType: 'Patient', active: true } });
    const patch = await http('PATCH', `fhir/R4/Patient/${created.body.id}`, {
      headers: { 'content-type': 'application/json-patch+json' },
      body: [{ op: 'add', path: '/photo', value: [{ contentType: 'text/html', url: 'data:text/html,<b>x</b>' }] }],
    });
    expect(patch.status).toBe(400);
    expect(issueExpressions(patch.body)).toContain('Patient.photo[0].url');

    const extension = await http('POST', 'fhir/R4/Basic', {
      body: {
        resourceType: 'Basic',
        code: { text: 'x' },
        extension: [{ url: 'https://e.org/a', valueAttachment: { url: 'vbscript:msgbox(1)' } }],
      },
    });
    expect(extension.status).toBe(400);
    expect(issueExpressions(extension.body)).toContain('Basic.extension[0].valueAttachment.url');
    await http('DELETE', `fhir/R4/Patient/${created.body.id}`);
  });

  it('stores what the app writes: Binary/{id}, and http(s) and urn: urls', async () => {
    const binary = await http<any>('POST', 'fhir/R4/Binary', {
      headers: { 'content-type': 'text/plain' },
      rawBody: 'hello',
    });
    expect(binary.status).toBe(201);
    for (const url of [
      `Binary/${binary.body.id}`,
      'https://example.org/scan.pdf',
      'urn:uuid:5b3f1a9e-2f59-4d8e-9a8c-0a1b2c3d4e5f',
    ]) {
      const answer = await http<any>('POST', 'fhir/R4/DocumentReference', { body: document(url) });
      expect({ url, status: answer.status }).toEqual({ url, status: 201 });
      await http('DELETE', `fhir/R4/DocumentReference/${answer.body.id}`);
    }
  });
});
