import { describe, expect, it } from 'vitest';
import type { ElementDefinition, StructureDefinition } from '@medplum/fhirtypes';
import { recordedStructureDefinitions } from '../../../schema-engine/test-support/recordedDefinitions';
import { differentialFromSnapshot, DOCUMENTATION_ONLY } from './differentialFromSnapshot';
import { generateSnapshot, SnapshotError } from './generateSnapshot';

const definitions = recordedStructureDefinitions();
const resolve = async (url: string) => definitions.find((definition) => definition.url === url.split('|')[0]);
const usCore = definitions.filter((definition) => definition.url?.startsWith('http://hl7.org/fhir/us/core/'));

const comparable = (element: ElementDefinition) => {
  const copy = { ...element } as Record<string, unknown>;
  for (const key of DOCUMENTATION_ONLY) delete copy[key];
  return copy;
};

describe('generateSnapshot rebuilds the published US Core snapshots from their differentials', () => {
  const buildable = usCore.filter((profile) => definitions.some((d) => d.url === profile.baseDefinition));

  it('covers the US Core profiles whose base is shipped', () => {
    expect(buildable.map((profile) => profile.id).sort()).toEqual(
      expect.arrayContaining(['us-core-patient', 'us-core-race']),
    );
  });

  for (const profile of buildable) {
    it(`${profile.id}: element for element`, async () => {
      const differential = await differentialFromSnapshot(profile, resolve);
      expect(differential.length).toBeGreaterThan(0);
      const fromDifferential: StructureDefinition = {
        ...profile,
        snapshot: undefined,
        differential: { element: differential },
      };
      const generated = await generateSnapshot(fromDifferential, resolve);
      const published = profile.snapshot?.element ?? [];
      expect(generated.map((e) => e.id)).toEqual(published.map((e) => e.id));
      for (const [index, element] of published.entries()) {
        expect(comparable(generated[index]), element.id).toEqual(comparable(element));
      }
    });
  }
});

/** A profile as an implementer writes it: only what changes. */
const handWritten: StructureDefinition = {
  resourceType: 'StructureDefinition',
  url: 'http://example.org/StructureDefinition/clinic-patient',
  name: 'ClinicPatient',
  status: 'draft',
  kind: 'resource',
  abstract: false,
  type: 'Patient',
  baseDefinition: 'http://hl7.org/fhir/StructureDefinition/Patient',
  derivation: 'constraint',
  differential: {
    element: [
      {
        id: 'Patient.extension:birthsex',
        path: 'Patient.extension',
        sliceName: 'birthsex',
        min: 0,
        max: '1',
        type: [{ code: 'Extension', profile: ['http://hl7.org/fhir/us/core/StructureDefinition/us-core-birthsex'] }],
      },
      { id: 'Patient.identifier', path: 'Patient.identifier', min: 1 },
      { id: 'Patient.identifier.system', path: 'Patient.identifier.system', min: 1, mustSupport: true },
      {
        id: 'Patient.gender',
        path: 'Patient.gender',
        min: 1,
        constraint: [
          { key: 'clinic-1', severity: 'error', human: 'Gender is known', expression: "$this != 'unknown'" },
        ],
      },
    ],
  },
};

describe('generateSnapshot on a hand-written differential', () => {
  it('applies each constraint to the base, unfolding the datatype and adding the slice after its element', async () => {
    const snapshot = await generateSnapshot(handWritten, resolve);
    const ids = snapshot.map((element) => element.id);
    const byId = (id: string) => snapshot.find((element) => element.id === id);
    // Identifier's elements are listed under Patient.identifier, in Identifier's order.
    const at = ids.indexOf('Patient.identifier');
    expect(ids.slice(at, at + 9)).toEqual([
      'Patient.identifier',
      'Patient.identifier.id',
      'Patient.identifier.extension',
      'Patient.identifier.use',
      'Patient.identifier.type',
      'Patient.identifier.system',
      'Patient.identifier.value',
      'Patient.identifier.period',
      'Patient.identifier.assigner',
    ]);
    expect(byId('Patient.identifier')).toMatchObject({ min: 1, max: '*', base: { path: 'Patient.identifier' } });
    expect(byId('Patient.identifier.system')).toMatchObject({
      path: 'Patient.identifier.system',
      min: 1,
      mustSupport: true,
      base: { path: 'Identifier.system', min: 0, max: '1' },
      type: [{ code: 'uri' }],
    });
    // The slice follows Patient.extension, described by its extension's definition.
    expect(ids[ids.indexOf('Patient.extension') + 1]).toBe('Patient.extension:birthsex');
    expect(byId('Patient.extension:birthsex')).toMatchObject({
      sliceName: 'birthsex',
      min: 0,
      max: '1',
      path: 'Patient.extension',
    });
    expect(byId('Patient.extension:birthsex')?.short).toBe(
      definitions.find((d) => d.id === 'us-core-birthsex')?.snapshot?.element[0].short,
    );
    // A new constraint is added to the base's (ele-1 stays).
    expect(byId('Patient.gender')?.constraint?.map((c) => c.key)).toEqual(['ele-1', 'clinic-1']);
    // Everything the differential does not name is the base's, in the base's order.
    const base = definitions.find((d) => d.id === 'Patient')?.snapshot?.element ?? [];
    expect(ids.filter((id) => !id?.startsWith('Patient.identifier.') && id !== 'Patient.extension:birthsex')).toEqual(
      base.map((e) => e.id),
    );
    expect(byId('Patient.birthDate')).toEqual(base.find((e) => e.id === 'Patient.birthDate'));
  });

  it('builds a differential-only base first (a profile of a profile)', async () => {
    const derived: StructureDefinition = {
      ...handWritten,
      url: 'http://example.org/StructureDefinition/clinic-patient-strict',
      baseDefinition: handWritten.url,
      differential: { element: [{ id: 'Patient.identifier.value', path: 'Patient.identifier.value', min: 1 }] },
    };
    const chain = async (url: string) => (url === handWritten.url ? handWritten : resolve(url));
    const snapshot = await generateSnapshot(derived, chain);
    expect(snapshot.find((e) => e.id === 'Patient.identifier.system')?.min).toBe(1);
    expect(snapshot.find((e) => e.id === 'Patient.identifier.value')?.min).toBe(1);
    expect(snapshot.filter((e) => e.id === 'Patient.identifier.value')).toHaveLength(1);
  });

  it('names what it cannot build: an unknown base, an element the base lacks, a choice of several types, a loop', async () => {
    await expect(
      generateSnapshot({ ...handWritten, baseDefinition: 'http://example.org/none' }, resolve),
    ).rejects.toThrow(
      new SnapshotError('Definition not found: http://example.org/none', 'StructureDefinition.baseDefinition'),
    );
    const unknown = {
      ...handWritten,
      differential: { element: [{ id: 'Patient.nickname', path: 'Patient.nickname' }] },
    };
    await expect(generateSnapshot(unknown, resolve)).rejects.toMatchObject({
      message: 'No element Patient.nickname in the base definition or its datatypes',
      expression: 'StructureDefinition.differential.element[0]',
    });
    const choice = {
      ...handWritten,
      differential: { element: [{ id: 'Patient.deceased[x].id', path: 'Patient.deceased[x].id' }] },
    };
    await expect(generateSnapshot(choice, resolve)).rejects.toThrow(/it has 2 types/);
    const other = {
      ...handWritten,
      differential: { element: [{ id: 'Observation.status', path: 'Observation.status' }] },
    };
    await expect(generateSnapshot(other, resolve)).rejects.toThrow('Element Observation.status is not part of Patient');
    const loop: StructureDefinition = { ...handWritten, snapshot: undefined, baseDefinition: handWritten.url };
    await expect(
      generateSnapshot(loop, async (url) => (url === handWritten.url ? loop : resolve(url))),
    ).rejects.toThrow(/Base definitions loop/);
    await expect(generateSnapshot({ ...handWritten, baseDefinition: undefined }, resolve)).rejects.toThrow(
      'A differential needs a baseDefinition',
    );
  });

  it('holds a constraint to its base cardinality (a profile may only constrain); a new slice to its element max only', async () => {
    const build = (...element: ElementDefinition[]) =>
      generateSnapshot({ ...handWritten, differential: { element } }, resolve);
    await expect(build({ id: 'Patient.gender', path: 'Patient.gender', min: 2, max: '1' })).rejects.toMatchObject({
      message: 'Patient.gender: min 2 is more than max 1 (eld-2: min <= max)',
      expression: 'StructureDefinition.differential.element[0]',
    });
    await expect(build({ id: 'Patient.gender', path: 'Patient.gender', max: '2' })).rejects.toThrow(
      "Patient.gender: max 2 is more than the base's max 1 (a profile may only constrain its base's cardinality)",
    );
    await expect(
      build(
        { id: 'Patient.telecom', path: 'Patient.telecom', min: 1, max: '2' },
        { id: 'Patient.telecom', path: 'Patient.telecom', min: 0 },
      ),
    ).rejects.toMatchObject({
      message: expect.stringContaining("min 0 is less than the base's min 1"),
      expression: 'StructureDefinition.differential.element[1]',
    });
    await expect(
      build({ id: 'Patient.gender.extension:x', path: 'Patient.gender.extension', sliceName: 'x', max: '*' }),
    ).resolves.toBeDefined();
    // A new slice may be optional where its element is required, not allow more than its element.
    const sliced = [
      { id: 'Patient.telecom', path: 'Patient.telecom', min: 1, max: '2' },
      { id: 'Patient.telecom:home', path: 'Patient.telecom', sliceName: 'home', min: 0, max: '1' },
    ];
    await expect(build(...sliced)).resolves.toBeDefined();
    await expect(
      build(...sliced, { id: 'Patient.telecom:work', path: 'Patient.telecom', sliceName: 'work', min: 0, max: '*' }),
    ).rejects.toThrow("Patient.telecom:work: max * is more than the base's max 2");
    // A required slice of an extension nobody has cannot be filled: refused; an optional one is kept.
    const shoe = (min: number): ElementDefinition => ({
      id: 'Patient.extension:shoe',
      path: 'Patient.extension',
      sliceName: 'shoe',
      min,
      type: [{ code: 'Extension', profile: ['https://nope.example/StructureDefinition/shoe-size'] }],
    });
    await expect(build(shoe(1))).rejects.toMatchObject({
      message:
        'Extension definition not found: https://nope.example/StructureDefinition/shoe-size (the slice Patient.extension:shoe is required, min 1)',
      expression: 'StructureDefinition.differential.element[0]',
    });
    expect((await build(shoe(0))).find((e) => e.id === 'Patient.extension:shoe')).toMatchObject({ min: 0 });
  });
});
