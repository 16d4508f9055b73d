import { beforeAll, describe, expect, it } from 'vitest';
import type { ElementDefinition, StructureDefinition } from '@medplum/fhirtypes';
import { http, issueExpressions, issueText } from '../../../tests/integration/fhirClient';
import { registerProjectOwner } from '../../../tests/integration/accounts';
import { recordedStructureDefinitions } from '../../../schema-engine/test-support/recordedDefinitions';
import { differentialFromSnapshot, DOCUMENTATION_ONLY } from './differentialFromSnapshot';
import { patientProfile } from '../patientProfile.test-support';

/* eslint-disable @typescript-eslint/no-explicit-any -- FHIR answers of many shapes */
type Answer = { status: number; body: any; headers: Headers };

const birthsex = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-birthsex';

/** A differential-only Patient profile, as implementers write them. */
function clinicProfile(url: string): StructureDefinition {
  return patientProfile(url, 'ClinicPatient', {
    differential: {
      element: [
        {
          id: 'Patient.extension:birthsex',
          path: 'Patient.extension',
          sliceName: 'birthsex',
          min: 0,
          max: '1',
          type: [{ code: 'Extension', profile: [birthsex] }],
        },
        { id: 'Patient.identifier', path: 'Patient.identifier', min: 1 },
        { id: 'Patient.identifier.system', path: 'Patient.identifier.system', min: 1 },
      ],
    },
  });
}

const element = (definition: any, id: string): ElementDefinition | undefined =>
  definition.snapshot?.element?.find((e: ElementDefinition) => e.id === id);

describe('profiles given as a differential', () => {
  let token: string;
  let otherToken: string;
  const url = `http://example.org/StructureDefinition/clinic-patient-${Date.now()}`;
  const get = (path: string, as = token): Promise<Answer> => http('GET', `fhir/R4/${path}`, { token: as });
  const send = (method: string, path: string, body: unknown, as = token): Promise<Answer> =>
    http(method, `fhir/R4/${path}`, { token: as, body });

  beforeAll(async () => {
    token = (await registerProjectOwner('Snapshot Clinic')).tokens.access_token;
    otherToken = (await registerProjectOwner('Snapshot Elsewhere')).tokens.access_token;
  });

  it('saves a differential-only profile with its generated snapshot, and the profile then checks resources', async () => {
    const created = await send('POST', 'StructureDefinition', clinicProfile(url));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const stored = (await get(`StructureDefinition/${created.body.id}`)).body;
    expect(element(stored, 'Patient.identifier')).toMatchObject({ min: 1, max: '*' });
    expect(element(stored, 'Patient.identifier.system')).toMatchObject({ min: 1, base: { path: 'Identifier.system' } });
    expect(element(stored, 'Patient.extension:birthsex')).toMatchObject({ sliceName: 'birthsex', max: '1' });
    expect(stored.differential.element).toHaveLength(3);
    // Before: "StructureDefinition snapshot missing or empty"; now the profile's rules apply.
    const checked = await send('POST', 'Patient/$validate', {
      resourceType: 'Patient',
      meta: { profile: [url] },
      identifier: [{ value: 'no-system' }],
    });
    expect(checked.status, JSON.stringify(checked.body)).toBe(200);
    const texts = (checked.body.issue ?? []).map((i: any) => `${i.expression?.[0]}: ${i.details?.text}`);
    expect(texts.join('\n')).toMatch(/Patient\.identifier(\[0\])?\.system/);
    expect(texts.join('\n')).not.toMatch(/snapshot missing/);
  });

  it('regenerates the snapshot when a differential is updated without one', async () => {
    const created = (await send('POST', 'StructureDefinition', clinicProfile(`${url}-v2`))).body;
    const changed = clinicProfile(`${url}-v2`);
    changed.differential?.element.push({ id: 'Patient.birthDate', path: 'Patient.birthDate', min: 1 });
    const updated = await send('PUT', `StructureDefinition/${created.id}`, { ...changed, id: created.id });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(element(updated.body, 'Patient.birthDate')?.min).toBe(1);
    expect(element(updated.body, 'Patient.identifier.system')?.min).toBe(1);
  });

  it('refuses a differential that cannot be applied with the element at fault, and stores nothing', async () => {
    const bad = clinicProfile(`${url}-bad`);
    bad.differential?.element.push({ id: 'Patient.nickname', path: 'Patient.nickname', min: 1 });
    const answer = await send('POST', 'StructureDefinition', bad);
    expect(answer.status).toBe(400);
    expect(issueText(answer.body)).toBe(
      'Cannot generate the snapshot: No element Patient.nickname in the base definition or its datatypes',
    );
    expect(issueExpressions(answer.body)).toEqual(['StructureDefinition.differential.element[3]']);
    expect((await get(`StructureDefinition?url=${encodeURIComponent(`${url}-bad`)}`)).body.entry ?? []).toHaveLength(0);
    // A differential of the wrong shape is a validation error, not a server error.
    const shapeless = await send('POST', 'StructureDefinition', {
      ...clinicProfile(`${url}-x`),
      differential: { element: 'x' },
    });
    expect(shapeless.status).toBe(400);
  });

  it('rebuilds US Core race from its differential when saved, as published', async () => {
    const definitions = recordedStructureDefinitions();
    const race = definitions.find((d) => d.id === 'us-core-race') as StructureDefinition;
    const differential = await differentialFromSnapshot(race, async (u) => definitions.find((d) => d.url === u));
    const copyUrl = `${url}-race`;
    const answer = await send('POST', 'StructureDefinition', {
      ...race,
      id: undefined,
      url: copyUrl,
      snapshot: undefined,
      differential: { element: differential },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const strip = (e: ElementDefinition) => {
      const copy = { ...e } as Record<string, unknown>;
      for (const key of DOCUMENTATION_ONLY) delete copy[key];
      return copy;
    };
    expect(answer.body.snapshot.element.map(strip)).toEqual(race.snapshot?.element.map(strip));
  });

  describe('StructureDefinition/$snapshot', () => {
    it('answers a posted definition (body or "definition" parameter) with its snapshot and stores nothing', async () => {
      const posted = await send('POST', 'StructureDefinition/$snapshot', clinicProfile(`${url}-op`));
      expect(posted.status, JSON.stringify(posted.body)).toBe(200);
      expect(element(posted.body, 'Patient.identifier.system')?.min).toBe(1);
      const parameters = await send('POST', 'StructureDefinition/$snapshot', {
        resourceType: 'Parameters',
        parameter: [{ name: 'definition', resource: clinicProfile(`${url}-op`) }],
      });
      expect(element(parameters.body, 'Patient.extension:birthsex')?.sliceName).toBe('birthsex');
      expect((await get(`StructureDefinition?url=${encodeURIComponent(`${url}-op`)}`)).body.entry ?? []).toHaveLength(
        0,
      );
    });

    it('answers a stored definition by url and by id; the snapshot is rebuilt from the differential', async () => {
      const byUrl = await get(`StructureDefinition/$snapshot?url=${encodeURIComponent(url)}`);
      expect(byUrl.status, JSON.stringify(byUrl.body)).toBe(200);
      expect(element(byUrl.body, 'Patient.identifier.system')?.min).toBe(1);
      const byId = await get(`StructureDefinition/${byUrl.body.id}/$snapshot`);
      expect(byId.status).toBe(200);
      expect(byId.body.snapshot.element).toEqual(byUrl.body.snapshot.element);
    });

    it('is declared in the CapabilityStatement', async () => {
      const metadata = (await get('metadata')).body;
      const definition = metadata.rest[0].resource.find((r: any) => r.type === 'StructureDefinition');
      expect(definition.operation.map((o: any) => o.name)).toContain('snapshot');
    });

    it('says what is missing: no definition, no differential, an unknown url', async () => {
      const empty = await send('POST', 'StructureDefinition/$snapshot', { resourceType: 'Parameters', parameter: [] });
      expect(empty.status).toBe(400);
      const noDifferential = await send('POST', 'StructureDefinition/$snapshot', {
        ...clinicProfile(`${url}-none`),
        differential: undefined,
      });
      expect(noDifferential.status).toBe(400);
      expect(issueText(noDifferential.body)).toMatch(/no differential/);
      const unknown = await get(
        `StructureDefinition/$snapshot?url=${encodeURIComponent('http://example.org/nothing')}`,
      );
      expect(unknown.status).toBe(404);
    });

    it("another project cannot read a project's profile through $snapshot nor build on it", async () => {
      const foreign = await get(`StructureDefinition/$snapshot?url=${encodeURIComponent(url)}`, otherToken);
      expect(foreign.status).toBe(404);
      const derived = { ...clinicProfile(`${url}-foreign`), baseDefinition: url };
      const answer = await send('POST', 'StructureDefinition', derived, otherToken);
      expect(answer.status).toBe(400);
      expect(issueText(answer.body)).toBe(`Cannot generate the snapshot: Definition not found: ${url}`);
    });
  });
});
