import { beforeAll, describe, expect, it } from 'vitest';
import type { ElementDefinition, StructureDefinition } from '@medplum/fhirtypes';
import { http, issueExpressions, issueText } from '../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../tests/integration/accounts';
import { patientProfile } from './patientProfile.test-support';
import { snapshotLimits } from './snapshot/snapshotLimits';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

const largestBase = 'http://hl7.org/fhir/StructureDefinition/ExplanationOfBenefit';

/** A Patient profile carrying its own snapshot: the root and these elements. */
function profileWithSnapshot(url: string, elements: ElementDefinition[]): StructureDefinition {
  return patientProfile(url, 'ReadyMadePatient', {
    snapshot: { element: [{ id: 'Patient', path: 'Patient', min: 0, max: '*' }, ...elements] },
  });
}

/** `count` extension slices: as many elements as asked, each cheap to send. */
function slices(count: number): ElementDefinition[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `Patient.extension:s${i}`,
    path: 'Patient.extension',
    sliceName: `s${i}`,
  }));
}

/**
 * Snapshot generation is bounded (snapshotLimits.ts), but a StructureDefinition uploaded with a
 * snapshot of its own skipped it: any number of elements, paths of any depth or length were stored,
 * then loaded and compiled into validators and forms on every later request that used the profile.
 */
describe('StructureDefinitions larger than the snapshot limits', () => {
  let token: string;
  const url = (name: string) => `http://attacker.example/StructureDefinition/${name}-${Date.now()}`;
  const stored = async (canonical: string) =>
    (await http<any>('GET', `fhir/R4/StructureDefinition?url=${encodeURIComponent(canonical)}`, { token })).body
      .entry ?? [];

  /** The answer must be 422 too-costly naming `expression`, with `text` in its message. */
  function expectTooCostly(answer: { status: number; body: any }, expression: string, text: string) {
    expect(answer.status, JSON.stringify(answer.body).slice(0, 500)).toBe(422);
    expect(answer.body.issue[0].code).toBe('too-costly');
    expect(issueExpressions(answer.body)).toEqual([expression]);
    expect(issueText(answer.body)).toContain(text);
  }

  beforeAll(async () => {
    token = (await registerProjectOwner('Oversized Profiles')).tokens.access_token;
  });

  it('$validate reports an oversized definition as a problem of it (200 with the too-costly issue)', async () => {
    const answer = await http<any>('POST', 'fhir/R4/StructureDefinition/$validate', {
      token,
      body: profileWithSnapshot(url('validated'), slices(snapshotLimits.maxElements)),
    });
    expect(answer.status).toBe(200);
    expect(answer.body.issue[0]).toMatchObject({
      severity: 'error',
      code: 'too-costly',
      expression: ['StructureDefinition.snapshot.element'],
    });
  });

  it('refuses a ready-made snapshot with more elements than the limit, and stores nothing', async () => {
    const canonical = url('wide');
    const answer = await http<any>('POST', 'fhir/R4/StructureDefinition', {
      token,
      body: profileWithSnapshot(canonical, slices(snapshotLimits.maxElements)),
    });
    expectTooCostly(
      answer,
      'StructureDefinition.snapshot.element',
      `${snapshotLimits.maxElements + 1} elements; at most ${snapshotLimits.maxElements} are allowed`,
    );
    expect(await stored(canonical)).toHaveLength(0);
  });

  it('refuses snapshot paths deeper or longer than the limit', async () => {
    const deep = ['Patient', ...Array.from({ length: snapshotLimits.maxIdParts }, () => 'extension')].join('.');
    const deepAnswer = await http<any>('POST', 'fhir/R4/StructureDefinition', {
      token,
      body: profileWithSnapshot(url('deep'), [{ path: deep }]),
    });
    expectTooCostly(
      deepAnswer,
      'StructureDefinition.snapshot.element[1].path',
      `${snapshotLimits.maxIdParts + 1} levels deep; at most ${snapshotLimits.maxIdParts} are allowed`,
    );
    const long = `Patient.${'x'.repeat(snapshotLimits.maxIdLength)}`;
    const longAnswer = await http<any>('POST', 'fhir/R4/StructureDefinition', {
      token,
      body: profileWithSnapshot(url('long'), [{ id: long, path: 'Patient.extension' }]),
    });
    expectTooCostly(
      longAnswer,
      'StructureDefinition.snapshot.element[1].id',
      `${long.length} characters long; at most ${snapshotLimits.maxIdLength} are allowed`,
    );
  });

  it('refuses an oversized differential next to a ready-made snapshot', async () => {
    const body = {
      ...profileWithSnapshot(url('long-differential'), []),
      differential: { element: slices(snapshotLimits.maxDifferentialElements + 1) },
    };
    const answer = await http<any>('POST', 'fhir/R4/StructureDefinition', { token, body });
    expectTooCostly(
      answer,
      'StructureDefinition.differential.element',
      `at most ${snapshotLimits.maxDifferentialElements} are allowed`,
    );
  });

  it('refuses an update that makes a stored profile too large, keeping the stored version', async () => {
    const canonical = url('grown');
    const created = await http<any>('POST', 'fhir/R4/StructureDefinition', {
      token,
      body: profileWithSnapshot(canonical, slices(2)),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const grown = { ...profileWithSnapshot(canonical, slices(snapshotLimits.maxElements)), id: created.body.id };
    const answer = await http<any>('PUT', `fhir/R4/StructureDefinition/${created.body.id}`, { token, body: grown });
    expectTooCostly(answer, 'StructureDefinition.snapshot.element', `at most ${snapshotLimits.maxElements}`);
    const read = await http<any>('GET', `fhir/R4/StructureDefinition/${created.body.id}`, { token });
    expect(read.body.snapshot.element).toHaveLength(3);
    expect(read.body.meta.versionId).toBe(created.body.meta.versionId);
  });

  it('refuses one in a transaction Bundle, naming the entry, and stores nothing of the Bundle', async () => {
    const canonical = url('in-bundle');
    const bystander = url('bystander');
    const answer = await http<any>('POST', 'fhir/R4', {
      token,
      body: {
        resourceType: 'Bundle',
        type: 'transaction',
        entry: [
          {
            resource: profileWithSnapshot(bystander, slices(1)),
            request: { method: 'POST', url: 'StructureDefinition' },
          },
          {
            resource: profileWithSnapshot(canonical, slices(snapshotLimits.maxElements)),
            request: { method: 'POST', url: 'StructureDefinition' },
          },
        ],
      },
    });
    expectTooCostly(answer, 'Bundle.entry[1].resource.snapshot.element', `at most ${snapshotLimits.maxElements}`);
    expect(await stored(canonical)).toHaveLength(0);
    expect(await stored(bystander)).toHaveLength(0);
  });

  it('accepts a copy of the largest base definition the server loads, as uploaded', async () => {
    const search = await http<any>('GET', `fhir/R4/StructureDefinition?url=${encodeURIComponent(largestBase)}`, {
      token,
    });
    const base = search.body.entry[0].resource as StructureDefinition;
    const size = base.snapshot?.element.length ?? 0;
    // The largest snapshot of the loaded definitions (256 elements): the limits stay several times above it.
    expect(size).toBeGreaterThan(250);
    expect(size).toBeLessThan(snapshotLimits.maxElements / 5);
    const { id: _id, meta: _meta, ...copy } = base;
    const canonical = url('eob-copy');
    const created = await http<any>('POST', 'fhir/R4/StructureDefinition', {
      token,
      body: { ...copy, url: canonical },
    });
    expect(created.status, JSON.stringify(created.body).slice(0, 500)).toBe(201);
    expect(created.body.snapshot.element).toHaveLength(size);
  });
});
