import type { StructureDefinition } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { recordedDefinition } from '../test-support/recordedDefinitions';
import { buildTypeSchema, parseMax } from './buildTypeSchema';
import { isReadOnlyPath } from './readOnlyElements';

const hl7 = (type: string) => `http://hl7.org/fhir/StructureDefinition/${type}`;
const usCore = (name: string) => `http://hl7.org/fhir/us/core/StructureDefinition/${name}`;

describe('buildTypeSchema on R4 base definitions', () => {
  const patient = buildTypeSchema(recordedDefinition(hl7('Patient')));

  it('reads paths, cardinality (max * → Infinity, min > 0 → required) and types', () => {
    expect(patient.type).toBe('Patient');
    expect(patient.kind).toBe('resource');
    expect(patient.profileUrl).toBeUndefined();
    const name = patient.elements.get('name');
    expect(name).toMatchObject({ min: 0, max: Infinity, isArray: true, required: false, types: ['HumanName'] });
    expect(patient.elements.get('link.other')).toMatchObject({ min: 1, required: true, types: ['Reference'] });
    expect(patient.elements.get('link.other')?.targetProfiles).toEqual([hl7('Patient'), hl7('RelatedPerson')]);
    expect(patient.topLevel.map((e) => e.path).slice(0, 4)).toEqual(['id', 'meta', 'implicitRules', 'language']);
  });

  it('spells choice elements with their types, and id elements with their FHIR type', () => {
    expect(patient.elements.get('deceased[x]')).toMatchObject({
      name: 'deceased',
      isChoice: true,
      types: ['boolean', 'dateTime'],
    });
    expect(patient.elements.get('id')?.types).toEqual(['id']);
    expect(patient.elements.get('contact.id')?.types).toEqual(['string']);
  });

  it('gives backbone elements their children and reads bindings', () => {
    const contact = patient.elements.get('contact');
    expect(contact?.types).toEqual(['BackboneElement']);
    expect(contact?.children.map((c) => c.name)).toEqual([
      'id',
      'extension',
      'modifierExtension',
      'relationship',
      'name',
      'telecom',
      'address',
      'gender',
      'organization',
      'period',
    ]);
    expect(patient.elements.get('gender')?.binding).toEqual({
      strength: 'required',
      valueSet: 'http://hl7.org/fhir/ValueSet/administrative-gender|4.0.1',
    });
    expect(contact?.constraints.map((c) => c.key)).toContain('pat-1');
  });

  it('resolves contentReference to a path relative to the type', () => {
    const questionnaire = buildTypeSchema(recordedDefinition(hl7('Questionnaire')));
    expect(questionnaire.elements.get('item.item')?.contentReference).toBe('item');
    expect(questionnaire.elements.get('item')?.children.length).toBeGreaterThan(10);
  });

  it('marks server-set elements read-only', () => {
    expect(patient.elements.get('id')?.readOnly).toBe(true);
    expect(patient.elements.get('meta')?.readOnly).toBe(false);
    expect(patient.elements.get('name')?.readOnly).toBe(false);
    expect(isReadOnlyPath('meta.versionId')).toBe(true);
    expect(isReadOnlyPath('meta.lastUpdated')).toBe(true);
    expect(isReadOnlyPath('meta.profile')).toBe(false);
    expect(isReadOnlyPath('meta.compartment[0]')).toBe(true);
  });

  it('builds the Medplum Meta with its extra references', () => {
    const meta = buildTypeSchema(recordedDefinition(hl7('Meta')));
    expect(meta.kind).toBe('complex-type');
    expect(meta.elements.get('versionId')?.types).toEqual(['id']);
    expect(meta.elements.get('profile')?.max).toBe(Infinity);
  });
});

describe('buildTypeSchema on profiles', () => {
  it('US Core Patient: profile url, narrowed cardinality and extension slices', () => {
    const profile = buildTypeSchema(recordedDefinition(usCore('us-core-patient')));
    expect(profile.type).toBe('Patient');
    expect(profile.profileUrl).toBe(usCore('us-core-patient'));
    expect(profile.elements.get('identifier')).toMatchObject({ min: 1, required: true, isArray: true });
    expect(profile.elements.get('name')?.min).toBe(1);
    const extension = profile.elements.get('extension');
    expect(extension?.slicing?.discriminators).toEqual([{ type: 'value', path: 'url' }]);
    const race = extension?.slicing?.slices.find((s) => s.name === 'race');
    expect(race).toMatchObject({ min: 0, max: 1 });
    expect(race?.types[0]).toMatchObject({ code: 'Extension', profiles: [usCore('us-core-race')] });
    // Slices do not leak into the element map as elements of their own.
    expect([...profile.elements.keys()].some((k) => k.includes(':'))).toBe(false);
  });

  it('blood pressure: pattern slices of component with their own fixed children', () => {
    const bp = buildTypeSchema(recordedDefinition(hl7('bp')));
    const component = bp.elements.get('component');
    expect(component?.min).toBe(2);
    expect(component?.slicing?.discriminators).toEqual([
      { type: 'value', path: 'code.coding.code' },
      { type: 'value', path: 'code.coding.system' },
    ]);
    const systolic = component?.slicing?.slices.find((s) => s.name === 'SystolicBP');
    // The slice keeps its element's short text (this base profile's is about the whole component).
    expect(systolic).toMatchObject({
      min: 1,
      max: 1,
      short: 'Used when reporting systolic and diastolic blood pressure.',
    });
    const coding = systolic?.elements.get('code.coding')?.slicing?.slices.find((s) => s.name === 'SBPCode');
    expect(coding?.elements.get('code')?.fixedValue).toEqual({ type: 'code', value: '8480-6' });
    expect(coding?.elements.get('system')?.fixedValue).toEqual({ type: 'uri', value: 'http://loinc.org' });
    expect(systolic?.elements.get('value[x]')?.types).toEqual(['Quantity']);
    const category = bp.elements.get('category');
    expect(category?.slicing?.slices.map((s) => s.name)).toEqual(['VSCat']);
    const bpCode = bp.elements.get('code.coding')?.slicing?.slices[0];
    expect(bpCode?.elements.get('code')?.fixedValue?.value).toBe('85354-9');
  });

  it('type discriminators are accepted', () => {
    const guidance = buildTypeSchema(recordedDefinition(hl7('cdshooksguidanceresponse')));
    const sliced = [...guidance.elements.values()].filter((e) => e.slicing);
    expect(sliced.length).toBeGreaterThan(0);
  });
});

describe('buildTypeSchema errors', () => {
  const minimal = (): StructureDefinition => ({
    resourceType: 'StructureDefinition',
    url: 'http://example.org/StructureDefinition/x',
    name: 'X',
    status: 'active',
    kind: 'resource',
    abstract: false,
    type: 'Patient',
    snapshot: { element: [{ id: 'Patient', path: 'Patient', min: 0, max: '*' }] },
  });

  it('refuses a definition without a type, a name or a snapshot element', () => {
    expect(() => buildTypeSchema({ ...minimal(), type: undefined as unknown as string })).toThrow(
      'StructureDefinition type missing',
    );
    expect(() => buildTypeSchema({ ...minimal(), name: undefined as unknown as string })).toThrow(
      'StructureDefinition name missing',
    );
    expect(() => buildTypeSchema({ ...minimal(), snapshot: undefined })).toThrow(
      'StructureDefinition snapshot missing',
    );
    expect(() => buildTypeSchema({ ...minimal(), snapshot: { element: [] } })).toThrow(
      'StructureDefinition snapshot missing',
    );
    expect(buildTypeSchema(minimal()).topLevel).toEqual([]);
  });

  it('refuses discriminators other than value, pattern and type', () => {
    const definition = minimal();
    definition.snapshot?.element.push({
      id: 'Patient.identifier',
      path: 'Patient.identifier',
      min: 0,
      max: '*',
      slicing: { discriminator: [{ type: 'exists', path: 'system' }], rules: 'open' },
    });
    expect(() => buildTypeSchema(definition)).toThrow(
      'Unsupported slicing discriminator type: exists (Patient.identifier)',
    );
  });

  it('treats * and very large max values as unbounded', () => {
    expect(parseMax('*')).toBe(Infinity);
    expect(parseMax('2147483647')).toBe(Infinity);
    expect(parseMax('1')).toBe(1);
    expect(parseMax('0')).toBe(0);
  });
});
