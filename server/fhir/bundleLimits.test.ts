import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { bundleLimits } from './bundleLimits';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/**
 * A batch or transaction Bundle had no limit on its entries: within the body limit a member could
 * send about a million searches or creates in one request. One entry more than the limit is
 * refused with 413 at `Bundle.entry` before anything is run.
 */
describe('batch and transaction Bundles have an entry limit', () => {
  const tag = `bundle-limit-${randomUUID().slice(0, 8)}`;
  const created = async () =>
    (await http<any>('GET', `fhir/R4/Basic?_tag=urn:test|${tag}&_summary=count`)).body.total as number;
  const creates = (count: number) =>
    Array.from({ length: count }, () => ({
      resource: { resourceType: 'Basic', code: { text: 'limit' }, meta: { tag: [{ system: 'urn:test', code: tag }] } },
      request: { method: 'POST', url: 'Basic' },
    }));

  it('refuses one entry more than the limit with 413 naming Bundle.entry, writing nothing', async () => {
    for (const type of ['transaction', 'batch']) {
      const answer = await http<any>('POST', 'fhir/R4', {
        body: { resourceType: 'Bundle', type, entry: creates(bundleLimits.maxEntries + 1) },
      });
      expect(answer.status).toBe(413);
      expect(answer.body.resourceType).toBe('OperationOutcome');
      expect(issueExpressions(answer.body)).toEqual(['Bundle.entry']);
      expect(issueText(answer.body)).toContain(`at most ${bundleLimits.maxEntries}`);
    }
    expect(await created()).toBe(0);
  });

  it('refuses a hundred thousand cheap searches the same way', async () => {
    const entry = Array.from({ length: 100_000 }, () => ({ request: { method: 'GET', url: 'Patient?_count=1' } }));
    const answer = await http<any>('POST', 'fhir/R4', { body: { resourceType: 'Bundle', type: 'batch', entry } });
    expect(answer.status).toBe(413);
    expect(issueExpressions(answer.body)).toEqual(['Bundle.entry']);
  });

  it('still runs a Bundle within the limit', async () => {
    const answer = await http<any>('POST', 'fhir/R4', {
      body: { resourceType: 'Bundle', type: 'transaction', entry: creates(3) },
    });
    expect(answer.status).toBe(200);
    expect(await created()).toBe(3);
  });

  it('answers 400, not 500, for entries that are not objects', async () => {
    const notAList = await http<any>('POST', 'fhir/R4', {
      body: { resourceType: 'Bundle', type: 'batch', entry: { request: { method: 'GET', url: 'Patient' } } },
    });
    expect(notAList.status).toBe(400);
    expect(issueExpressions(notAList.body)).toEqual(['Bundle.entry']);
    for (const entry of [null, 'GET Patient', { request: null }, { request: { method: 'toString', url: 'Patient' } }]) {
      const answer = await http<any>('POST', 'fhir/R4', {
        body: { resourceType: 'Bundle', type: 'batch', entry: [entry] },
      });
      expect(answer.status).toBe(400);
      expect(issueExpressions(answer.body)[0]).toMatch(/^Bundle\.entry\[0\]/);
    }
  });

  it('refuses a Bundle or a search form larger than the body limit with 413 and an OperationOutcome', async () => {
    // The test server's limit is 8 MB (tests/integration/serverSetup.ts; MAX_BODY_BYTES, 64 MB by default).
    const big = 'x'.repeat(9 * 1024 * 1024);
    const bundle = await http<any>('POST', 'fhir/R4', {
      body: {
        resourceType: 'Bundle',
        type: 'batch',
        entry: [{ request: { method: 'GET', url: `Patient?name=${big}` } }],
      },
    });
    expect(bundle.status).toBe(413);
    expect(bundle.body.resourceType).toBe('OperationOutcome');
    expect(issueText(bundle.body)).toContain('larger than the limit');
    const form = await http<any>('POST', 'fhir/R4/Patient/_search', {
      rawBody: `name=${big}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(413);
    expect(issueText(form.body)).toContain('larger than the limit');
  });
});
