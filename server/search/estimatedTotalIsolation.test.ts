import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { http } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { memberUnderPolicy } from '../../tests/integration/policyMember';

interface SearchBundle {
  total?: number;
  entry?: unknown[];
}

/**
 * `_total=estimate` answered PostgreSQL's planner estimate, made from statistics of the whole index
 * tables: every project's rows. A member of one project could learn roughly how many resources
 * with a code another project holds (ask before and after its import, or compare codes). Totals
 * now come from the caller's own rows (estimatedTotal.ts).
 */
describe('_total=estimate tells a project nothing about another project', () => {
  const system = 'urn:estimate-isolation';
  const run = randomUUID().slice(0, 8);
  /** Held by project A (3 final, 2 preliminary) and, later, by project B (many). */
  const shared = `shared-${run}`;
  /** Held by project B only, later. */
  const onlyB = `only-b-${run}`;
  /** Held by nobody: what A sees for a code it does not hold must look like this. */
  const nobody = `nobody-${run}`;
  const heldByB = 300;
  let ownerA: Awaited<ReturnType<typeof registerProjectOwner>>;
  let ownerB: Awaited<ReturnType<typeof registerProjectOwner>>;
  let finalOnly: Awaited<ReturnType<typeof memberUnderPolicy>>;

  const observation = (code: string, status: string) => ({
    resource: { resourceType: 'Observation', status, code: { coding: [{ system, code }] } },
    request: { method: 'POST', url: 'Observation' },
  });

  async function write(token: string, entries: ReturnType<typeof observation>[]): Promise<void> {
    const answer = await http('POST', 'fhir/R4', {
      token,
      body: { resourceType: 'Bundle', type: 'transaction', entry: entries },
    });
    expect(answer.status, JSON.stringify(answer.body).slice(0, 500)).toBe(200);
  }

  /** The Bundle's `total` for `Observation?code=…&{query}` (the super admin's token by default). */
  async function total(token: string | undefined, code: string, query = '_total=estimate&_count=1') {
    const answer = await http<SearchBundle>('GET', `fhir/R4/Observation?code=${system}|${code}&${query}`, { token });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.total;
  }

  /** What each of A's callers can get from `_total=estimate` about the three codes. */
  async function answersInA() {
    const answers: Record<string, (number | undefined)[]> = {};
    for (const [name, token] of [
      ['owner', ownerA.tokens.access_token],
      ['final-only member', finalOnly.token],
    ] as const) {
      answers[name] = [
        await total(token, shared),
        await total(token, shared, '_total=estimate&_summary=count'),
        await total(token, onlyB),
        await total(token, nobody),
      ];
    }
    return answers;
  }

  beforeAll(async () => {
    ownerA = await registerProjectOwner('Estimate isolation A');
    ownerB = await registerProjectOwner('Estimate isolation B');
    finalOnly = await memberUnderPolicy(ownerA.projectId, ownerA.tokens.access_token, {
      resource: [{ resourceType: 'Observation', criteria: 'Observation?status=final' }],
    });
    await write(ownerA.tokens.access_token, [
      ...Array.from({ length: 3 }, () => observation(shared, 'final')),
      ...Array.from({ length: 2 }, () => observation(shared, 'preliminary')),
    ]);
  });

  it("gives A the same answers before and after B writes many matching resources: A's own exact counts", async () => {
    const before = await answersInA();
    // Exact, and from what each caller may read: the member's policy hides the preliminary two.
    expect(before).toEqual({ owner: [5, 5, 0, 0], 'final-only member': [3, 3, 0, 0] });

    await write(ownerB.tokens.access_token, [
      ...Array.from({ length: heldByB }, () => observation(shared, 'final')),
      ...Array.from({ length: heldByB }, () => observation(onlyB, 'final')),
    ]);

    expect(await answersInA()).toEqual(before);
    // `_total=accurate` counts the caller's rows as it always did.
    expect(await total(ownerA.tokens.access_token, shared, '_total=accurate&_count=1')).toBe(5);
    // B sees its own, exactly.
    expect(await total(ownerB.tokens.access_token, onlyB)).toBe(heldByB);
  });

  it('still answers a number to a super admin searching across projects (exact under the cap)', async () => {
    const spread = `spread-${run}`;
    await write(
      ownerA.tokens.access_token,
      Array.from({ length: 4 }, () => observation(spread, 'final')),
    );
    await write(
      ownerB.tokens.access_token,
      Array.from({ length: 6 }, () => observation(spread, 'final')),
    );
    expect(await total(ownerA.tokens.access_token, spread)).toBe(4);
    // `http` signs requests with the super admin's token unless told otherwise.
    expect(await total(undefined, spread)).toBe(10);
    expect(await total(undefined, spread, '_total=estimate&_summary=count')).toBe(10);
    expect(await total(undefined, nobody)).toBe(0);
  });
});
