import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ValueSet } from '@medplum/fhirtypes';
import { http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { clinicWithPatientRegistration, registerPatient } from '../../tests/integration/patientAccounts';
import { expansionLimits } from './expansionBudget';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/** POST ValueSet/$expand of an inline ValueSet, as `token`. */
const expandInline = (token: string, compose: ValueSet['compose'], query = '') =>
  http<any>('POST', `fhir/R4/ValueSet/$expand${query}`, {
    token,
    body: {
      resourceType: 'Parameters',
      parameter: [{ name: 'valueSet', resource: { resourceType: 'ValueSet', status: 'active', compose } }],
    },
  });

/**
 * Terminology operations as an attacker: a self-registered project admin (anyone, with open
 * registration) stores CodeSystems and ValueSets, and anyone signed in may POST a ValueSet to
 * expand. Each case used to stall the whole process (every other request waited).
 */
describe('terminology operations under attack', () => {
  let attacker: Awaited<ReturnType<typeof registerProjectOwner>>;
  let token: string;

  const createCodeSystem = async (url: string, concept: unknown[]) => {
    const created = await http<any>('POST', 'fhir/R4/CodeSystem', {
      token,
      body: { resourceType: 'CodeSystem', url, status: 'active', content: 'complete', concept },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  };

  beforeAll(async () => {
    attacker = await registerProjectOwner('Terminology Attack Clinic');
    token = attacker.tokens.access_token;
  });

  it('a regex filter that backtracks exponentially answers 422 within its time budget instead of stalling', async () => {
    const system = `http://attacker.example/cs/${randomUUID()}`;
    await createCodeSystem(system, [{ code: 'a'.repeat(28) }, { code: 'ab' }]);
    const evil = await expandInline(token, {
      include: [{ system, filter: [{ property: 'code', op: 'regex', value: '(a|a)*b' }] }],
    });
    expect(evil.status).toBe(422);
    expect(evil.body.issue[0].code).toBe('too-costly');
    expect(issueText(evil.body)).toContain(
      `its regex filters took longer than ${expansionLimits.regexMilliseconds} ms`,
    );
    // An ordinary pattern still works, and a broken one is the author's error (400), not a 500.
    const plain = await expandInline(token, {
      include: [{ system, filter: [{ property: 'code', op: 'regex', value: 'a[b]' }] }],
    });
    expect(plain.status).toBe(200);
    expect(plain.body.expansion.contains.map((c: any) => c.code)).toEqual(['ab']);
    const broken = await expandInline(token, {
      include: [{ system, filter: [{ property: 'code', op: 'regex', value: '(unclosed' }] }],
    });
    expect(broken.status).toBe(400);
    expect(issueExpressions(broken.body)).toEqual(['ValueSet.compose.include.filter.value']);
  });

  it('a deep hierarchy stated by parent properties expands in linear time (it took minutes: ancestors were copied per concept)', async () => {
    const system = `http://attacker.example/chain/${randomUUID()}`;
    const size = 3000;
    await createCodeSystem(
      system,
      Array.from({ length: size }, (_, i) => ({
        code: `c${i}`,
        ...(i > 0 ? { property: [{ code: 'parent', valueCode: `c${i - 1}` }] } : {}),
      })),
    );
    const below = await expandInline(
      token,
      { include: [{ system, filter: [{ property: 'concept', op: 'descendent-of', value: 'c1' }] }] },
      '?count=1',
    );
    expect(below.status).toBe(200);
    expect(below.body.expansion.total).toBe(size - 2);
    const lookup = await http<any>('GET', `fhir/R4/CodeSystem/$lookup?system=${system}&code=c2999`, { token });
    expect(lookup.status).toBe(200);
    expect(lookup.body.parameter).toContainEqual({
      name: 'property',
      part: [
        { name: 'code', valueCode: 'parent' },
        { name: 'value', valueCode: 'c2998' },
      ],
    });
  });

  it('value sets naming each other many times are expanded once each; an expansion past the step budget answers 422', async () => {
    const system = `http://attacker.example/leaf/${randomUUID()}`;
    await createCodeSystem(system, [{ code: 'leaf', display: 'Leaf' }]);
    const base = `http://attacker.example/vs/${randomUUID()}`;
    // Each level names the next 40 times: 40^2 nested expansions (each with its reads) before; a
    // level more made it 64,000 (expansionCost.unit.test.ts counts them).
    const levels = 3;
    for (let level = levels - 1; level >= 0; level--) {
      const compose =
        level === levels - 1
          ? { include: [{ system, concept: [{ code: 'leaf' }] }] }
          : { include: [{ valueSet: Array.from({ length: 40 }, () => `${base}/${level + 1}`) }] };
      const stored = await http('POST', 'fhir/R4/ValueSet', {
        token,
        body: { resourceType: 'ValueSet', url: `${base}/${level}`, status: 'active', compose },
      });
      expect(stored.status).toBe(201);
    }
    const fanned = await expandInline(token, { include: [{ valueSet: [`${base}/0`, `${base}/0`] }] });
    expect(fanned.status).toBe(200);
    expect(fanned.body.expansion.contains).toEqual([{ system, code: 'leaf', display: 'Leaf' }]);

    const parts = Array.from({ length: expansionLimits.maxSteps + 1 }, () => ({ system, concept: [{ code: 'leaf' }] }));
    const tooMany = await expandInline(token, { include: parts });
    expect(tooMany.status).toBe(422);
    expect(issueText(tooMany.body)).toContain(
      `needs more than ${expansionLimits.maxSteps} value sets, code systems and compose parts`,
    );
  });

  it("another project's CodeSystem is not used to expand or look up (nor is its existence told)", async () => {
    const system = `http://attacker.example/private/${randomUUID()}`;
    await createCodeSystem(system, [{ code: 'secret', display: 'Private code' }]);
    const other = await registerProjectOwner('Terminology Neighbour');
    const expanded = await expandInline(other.tokens.access_token, { include: [{ system }] });
    expect(expanded.status).toBe(400);
    expect(issueText(expanded.body)).toContain(`the code system ${system} is not available on this server`);
    const lookup = await http<any>('GET', `fhir/R4/CodeSystem/$lookup?system=${system}&code=secret`, {
      token: other.tokens.access_token,
    });
    expect(lookup.status).toBe(404);
    expect(issueText(lookup.body)).toBe(`CodeSystem not found: ${system}`);
    const subsumes = await http<any>('GET', `fhir/R4/CodeSystem/$subsumes?system=${system}&codeA=secret&codeB=secret`, {
      token: other.tokens.access_token,
    });
    expect(subsumes.status).toBe(404);
    expect(issueText(subsumes.body)).toBe(`CodeSystem not found: ${system}`);
    const stored = await http<any>('GET', `fhir/R4/CodeSystem?url=${system}`, { token });
    const onInstance = await http<any>(
      'GET',
      `fhir/R4/CodeSystem/${stored.body.entry[0].resource.id}/$subsumes?codeA=secret&codeB=secret`,
      { token: other.tokens.access_token },
    );
    expect(onInstance.status).toBe(404);
  });

  it("a patient limited to their own records cannot use their clinic's CodeSystem through $subsumes", async () => {
    const clinic = await clinicWithPatientRegistration('Terminology Patient Clinic');
    const system = `http://clinic.example/cs/${randomUUID()}`;
    const created = await http<any>('POST', 'fhir/R4/CodeSystem', {
      token: clinic.tokens.access_token,
      body: {
        resourceType: 'CodeSystem',
        url: system,
        status: 'active',
        content: 'complete',
        concept: [{ code: 'parent', concept: [{ code: 'child' }] }],
      },
    });
    expect(created.status).toBe(201);
    const patient = await registerPatient(clinic.projectId);
    const bySystem = await http<any>('GET', `fhir/R4/CodeSystem/$subsumes?system=${system}&codeA=parent&codeB=child`, {
      token: patient.token,
    });
    expect(bySystem.status).toBe(404);
    expect(issueText(bySystem.body)).toBe(`CodeSystem not found: ${system}`);
    const onInstance = await http<any>(
      'GET',
      `fhir/R4/CodeSystem/${created.body.id}/$subsumes?codeA=parent&codeB=child`,
      { token: patient.token },
    );
    // As a plain read of it is refused: the policy does not allow reading this CodeSystem.
    expect(onInstance.status).toBe(403);
    expect(onInstance.body.issue[0].code).toBe('forbidden');
    // The clinic's own staff get the answer.
    const owner = await http<any>('GET', `fhir/R4/CodeSystem/$subsumes?system=${system}&codeA=parent&codeB=child`, {
      token: clinic.tokens.access_token,
    });
    expect(owner.body.parameter).toEqual([{ name: 'outcome', valueCode: 'subsumes' }]);
  });
});
