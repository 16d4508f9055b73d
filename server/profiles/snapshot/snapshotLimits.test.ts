import { beforeAll, describe, expect, it } from 'vitest';
import type { StructureDefinition } from '@medplum/fhirtypes';
import { http, issueExpressions, issueText } from '../../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../../tests/integration/accounts';
import { patientProfile } from '../patientProfile.test-support';
import { snapshotLimits } from './snapshotLimits';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */

/** A differential-only Patient profile with these differential elements. */
function pathologicalProfile(url: string, element: { id: string; path: string; min?: number }[]): StructureDefinition {
  return patientProfile(url, 'PathologicalPatient', { differential: { element } });
}

/** `Patient.identifier.assigner.identifier.assigner…`: Identifier and Reference unfolded at every level. */
function deepPath(levels: number): string {
  const parts = ['Patient'];
  for (let i = 0; i < levels; i++) parts.push(i % 2 === 0 ? 'identifier' : 'assigner');
  return parts.join('.');
}

/**
 * A project admin (anyone, with open registration) saves StructureDefinitions, and anyone signed in
 * may POST one to $snapshot. A differential built to make the snapshot generator unfold datatypes
 * without end held the process (every other request waited) and stored a huge resource.
 */
describe('snapshot generation of a pathological differential', () => {
  let token: string;

  beforeAll(async () => {
    token = (await registerProjectOwner('Pathological Profiles')).tokens.access_token;
  });

  it('refuses an element nested deeper than the limit, naming it, and stores nothing', async () => {
    const url = `http://attacker.example/StructureDefinition/deep-${Date.now()}`;
    const path = deepPath(600);
    const saved = await http<any>('POST', 'fhir/R4/StructureDefinition', {
      token,
      body: pathologicalProfile(url, [{ id: path, path, min: 1 }]),
    });
    // Refused before generation by the size check every saved StructureDefinition passes
    // (structureDefinitionSize.ts), hence 422 (too-costly) rather than the generator's 400.
    expect(saved.status).toBe(422);
    expect(issueText(saved.body)).toContain(`levels deep; at most ${snapshotLimits.maxIdParts} are allowed`);
    expect(issueExpressions(saved.body)).toEqual(['StructureDefinition.differential.element[0].id']);
    const stored = await http<any>('GET', `fhir/R4/StructureDefinition?url=${encodeURIComponent(url)}`, { token });
    expect(stored.body.entry ?? []).toHaveLength(0);
  });

  it('refuses a differential whose snapshot grows past the element limit ($snapshot, nothing stored)', async () => {
    // Many shallow slices, each a copy of identifier and its unfolded children.
    const element = Array.from({ length: 900 }, (_, i) => ({
      id: `Patient.identifier:s${i}.assigner`,
      path: 'Patient.identifier.assigner',
    }));
    const answer = await http<any>('POST', 'fhir/R4/StructureDefinition/$snapshot', {
      token,
      body: pathologicalProfile('http://attacker.example/StructureDefinition/wide', element),
    });
    expect(answer.status).toBe(400);
    expect(issueText(answer.body)).toContain(`more than ${snapshotLimits.maxElements} elements`);
  });

  it('still builds an ordinary deep element', async () => {
    const path = deepPath(4);
    const answer = await http<any>('POST', 'fhir/R4/StructureDefinition/$snapshot', {
      token,
      body: pathologicalProfile('http://attacker.example/StructureDefinition/fine', [{ id: path, path, min: 1 }]),
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.snapshot.element.find((e: any) => e.id === path)?.min).toBe(1);
  });
});
