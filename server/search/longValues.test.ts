import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { http } from '../../tests/integration/fhirClient';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/**
 * Issue 14 item 12: a string over ~2.7 kB in an indexed element answered 500 (`index row size
 * exceeds btree maximum`), and one such value failed a whole import. Values of any length are
 * stored and found; the indexes hold a bounded prefix and searches recheck the full value.
 */
describe('long values in indexed elements', () => {
  const stamp = randomUUID().slice(0, 8);
  /** ~10 kB that starts with `head` (and differs from a twin only after the indexed prefix). */
  const long = (head: string, tail: string) => `${head} ${'lorem ipsum dolor '.repeat(560)}${tail}`;
  const text = long(`Long${stamp}`, 'end-one');
  const twin = long(`Long${stamp}`, 'end-two');
  const identifier = `ID${stamp}-${'9'.repeat(10_000)}`;
  const ids = (answer: { body: any }) => ((answer.body.entry ?? []) as any[]).map((e) => e.resource.id).sort();
  const search = (type: string, params: Record<string, string>) =>
    http<any>('POST', `fhir/R4/${type}/_search`, {
      rawBody: new URLSearchParams(params).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });

  it('stores a 10 kB string, token and text, and finds them by prefix, :exact, :contains and token', async () => {
    const observation = (valueString: string, id: string) => ({
      resourceType: 'Observation',
      status: 'final',
      code: { text: valueString, coding: [{ system: `urn:long:${'s'.repeat(3000)}`, code: id }] },
      identifier: [{ system: 'urn:long', value: id }],
      valueString,
    });
    const first = await http<any>('POST', 'fhir/R4/Observation', { body: observation(text, identifier) });
    expect(first.status).toBe(201);
    expect(first.body.valueString).toBe(text);
    const second = await http<any>('POST', 'fhir/R4/Observation', {
      body: observation(twin, `${identifier}0`),
    });
    expect(second.status).toBe(201);

    // Starts-with (short and longer than the indexed prefix), exact, contains.
    expect(ids(await search('Observation', { 'value-string': `long${stamp}` }))).toEqual(
      [first.body.id, second.body.id].sort(),
    );
    expect(ids(await search('Observation', { 'value-string': text.slice(0, 9000) }))).toEqual(
      [first.body.id, second.body.id].sort(),
    );
    expect(ids(await search('Observation', { 'value-string': text.slice(0, text.length - 2) }))).toEqual([
      first.body.id,
    ]);
    expect(ids(await search('Observation', { 'value-string:exact': text }))).toEqual([first.body.id]);
    expect(ids(await search('Observation', { 'value-string:exact': twin }))).toEqual([second.body.id]);
    expect(ids(await search('Observation', { 'value-string:contains': 'dolor lorem ipsum dolor end-two' }))).toEqual([
      second.body.id,
    ]);
    // Tokens: equal only on the whole value, even when two values share the indexed prefix.
    expect(ids(await search('Observation', { identifier }))).toEqual([first.body.id]);
    expect(ids(await search('Observation', { identifier: `urn:long|${identifier}0` }))).toEqual([second.body.id]);
    expect(ids(await search('Observation', { identifier: identifier.slice(0, 300) }))).toEqual([]);
    expect(ids(await search('Observation', { code: `urn:long:${'s'.repeat(3000)}|${identifier}` }))).toEqual([
      first.body.id,
    ]);
    expect(ids(await search('Observation', { 'code:text': `long${stamp}` }))).toEqual(
      [first.body.id, second.body.id].sort(),
    );
  });

  it('stores a long uri and a long reference, and a batch import with one such entry succeeds', async () => {
    const url = `https://example.org/ValueSet/${stamp}/${'segment/'.repeat(700)}`;
    const valueSet = await http<any>('POST', 'fhir/R4/ValueSet', {
      body: { resourceType: 'ValueSet', status: 'draft', url },
    });
    expect(valueSet.status).toBe(201);
    expect(ids(await search('ValueSet', { url }))).toEqual([valueSet.body.id]);
    expect(ids(await search('ValueSet', { 'url:below': url.slice(0, 3000) }))).toEqual([valueSet.body.id]);

    const reference = await http<any>('POST', 'fhir/R4/Observation', {
      body: {
        resourceType: 'Observation',
        status: 'final',
        code: { text: 'odd reference' },
        subject: { reference: `${'A'.repeat(3000)}/x`, display: 'd'.repeat(4000) },
      },
    });
    expect(reference.status).not.toBe(500);

    const entry = (valueString: string) => ({
      request: { method: 'POST', url: 'Observation' },
      resource: { resourceType: 'Observation', status: 'final', code: { text: `Batch${stamp}` }, valueString },
    });
    for (const type of ['batch', 'transaction']) {
      const bundle = await http<any>('POST', 'fhir/R4', {
        body: { resourceType: 'Bundle', type, entry: [entry('short'), entry(long(`Batch${stamp}`, type)), entry('x')] },
      });
      expect(bundle.status, type).toBe(200);
      expect(
        bundle.body.entry.map((e: any) => e.response.status),
        type,
      ).toEqual(['201', '201', '201']);
    }
    expect((await search('Observation', { code: `Batch${stamp}`, _total: 'accurate' })).body.total).toBe(0);
    expect((await search('Observation', { 'code:text': `Batch${stamp}`, _total: 'accurate' })).body.total).toBe(6);
  });
});
