import { describe, expect, it } from 'vitest';
import { canOfferBulk, canRunBots } from './bulkAccess';
import { runForEach, summarizeBotResult, type BulkRunStatus } from './bulkBotRun';

describe('runForEach', () => {
  it('runs every id at most `concurrency` at a time and records each result or failure', async () => {
    let running = 0;
    let most = 0;
    const reports: [string, BulkRunStatus['state']][] = [];
    await runForEach(
      ['a', 'b', 'c', 'd', 'e'],
      async (id) => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        if (id === 'c') throw new Error('c refused');
        return `ran ${id}`;
      },
      (id, status) => reports.push([id, status.state]),
      { concurrency: 2 },
    );
    expect(most).toBe(2);
    const finals = new Map(reports.filter(([, state]) => state !== 'running'));
    expect(Object.fromEntries(finals)).toEqual({ a: 'done', b: 'done', c: 'failed', d: 'done', e: 'done' });
  });

  it('marks resources not yet started as skipped once stopped', async () => {
    const controller = new AbortController();
    const final = new Map<string, BulkRunStatus>();
    await runForEach(
      ['a', 'b', 'c'],
      async (id) => {
        if (id === 'a') controller.abort();
        return 'ok';
      },
      (id, status) => final.set(id, status),
      { concurrency: 1, signal: controller.signal },
    );
    expect(final.get('a')).toEqual({ state: 'done', summary: 'ok' });
    expect(final.get('b')?.state).toBe('skipped');
    expect(final.get('c')?.state).toBe('skipped');
  });

  it('does nothing for no ids', async () => {
    const reports: string[] = [];
    await runForEach(
      [],
      async () => 'x',
      (id) => reports.push(id),
    );
    expect(reports).toEqual([]);
  });
});

describe('summarizeBotResult', () => {
  it('says what a bot answered in one line', () => {
    expect(summarizeBotResult(undefined)).toBe('OK');
    expect(summarizeBotResult('tagged')).toBe('tagged');
    expect(
      summarizeBotResult({
        resourceType: 'OperationOutcome',
        issue: [{ code: 'informational', details: { text: 'All OK' } }],
      }),
    ).toBe('All OK');
    expect(summarizeBotResult({ resourceType: 'Patient', id: 'p1' })).toBe('Patient/p1');
    expect(summarizeBotResult({ count: 2 })).toBe('{"count":2}');
    expect(summarizeBotResult('x'.repeat(500))).toHaveLength(200);
  });
});

describe('bulk access', () => {
  const none = { policy: undefined, superAdmin: false, projectAdmin: false };
  it('offers Bulk... to whoever reads Bots', () => {
    expect(canOfferBulk(none)).toBe(true); // no policy: the whole project
    expect(
      canOfferBulk({ ...none, policy: { resourceType: 'AccessPolicy', resource: [{ resourceType: 'Patient' }] } }),
    ).toBe(false);
    expect(canOfferBulk({ ...none, policy: { resourceType: 'AccessPolicy', resource: [{ resourceType: '*' }] } })).toBe(
      true,
    );
    expect(canOfferBulk({ ...none, superAdmin: true, policy: { resourceType: 'AccessPolicy', resource: [] } })).toBe(
      true,
    );
  });

  it('runs bots for admins, or a policy with a writable Bot entry, as the server does', () => {
    expect(canRunBots(none)).toBe(false);
    expect(canRunBots({ ...none, projectAdmin: true })).toBe(true);
    expect(canRunBots({ ...none, superAdmin: true })).toBe(true);
    const policy = (readonly: boolean) => ({
      resourceType: 'AccessPolicy' as const,
      resource: [{ resourceType: 'Bot', readonly }],
    });
    expect(canRunBots({ ...none, policy: policy(false) })).toBe(true);
    expect(canRunBots({ ...none, policy: policy(true) })).toBe(false);
    expect(canRunBots({ ...none, policy: { resourceType: 'AccessPolicy', resource: [{ resourceType: '*' }] } })).toBe(
      false,
    );
  });
});
