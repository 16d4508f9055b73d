import { describe, expect, it } from 'vitest';
import { SchemaLoader } from '../loading/schemaLoader';
import type { ElementModel, TypeSchema } from '../model/schemaTypes';
import { recordedSource } from '../test-support/recordedDefinitions';
import {
  acceptsOtherValues,
  canAddToSlice,
  canRemoveFromSlice,
  groupBySlice,
  nestedSliceConstraints,
  profiledSliceInitialValue,
  replaceOtherValues,
  sliceEntryChildren,
  sliceInsertionIndex,
} from './sliceFields';
import { applyFixedDefaults } from './slices';
import { toFormModel, fromFormModel } from './formModel';

const bpUrl = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-blood-pressure';
const patientUrl = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient';
const raceUrl = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-race';
const systolic = { code: { coding: [{ system: 'http://loinc.org', code: '8480-6' }] }, valueQuantity: { value: 1 } };
const diastolic = { code: { coding: [{ system: 'http://loinc.org', code: '8462-4' }] } };
const other = { code: { text: 'cuff' } };

function element(schema: TypeSchema, path: string): ElementModel {
  const found = schema.elements.get(path);
  if (!found) throw new Error(`no ${path}`);
  return found;
}

describe('slice fields of the editor', () => {
  const loader = new SchemaLoader(recordedSource());

  it('groups values by slice, keeping positions, and the rest as other values', async () => {
    const component = element(await loader.loadProfile(bpUrl), 'component');
    const groups = groupBySlice([diastolic, other, systolic], component);
    expect(groups.slices.map((g) => [g.slice.name, g.indexes])).toEqual([
      ['systolic', [2]],
      ['diastolic', [0]],
    ]);
    expect(groups.others).toEqual([1]);
    // A new systolic entry goes after its own entries; a slice without entries before a later slice's.
    expect(sliceInsertionIndex(groups, groups.slices[0].slice, 3)).toBe(3);
    const onlyDiastolic = groupBySlice([other, diastolic], component);
    expect(sliceInsertionIndex(onlyDiastolic, onlyDiastolic.slices[0].slice, 2)).toBe(1);
    expect(sliceInsertionIndex(onlyDiastolic, onlyDiastolic.slices[1].slice, 2)).toBe(2);
  });

  it('add and remove follow the slice cardinality and the element max; closed slicing takes no other values', async () => {
    const component = element(await loader.loadProfile(bpUrl), 'component');
    const [sys] = component.slicing?.slices ?? [];
    expect(canAddToSlice(sys, 0, component, 3)).toBe(true);
    expect(canAddToSlice(sys, 1, component, 3)).toBe(false);
    expect(canAddToSlice(sys, 0, { ...component, max: 3 }, 3)).toBe(false);
    expect(canRemoveFromSlice(sys, 1)).toBe(false);
    expect(canRemoveFromSlice({ ...sys, min: 0 }, 1)).toBe(true);
    expect(acceptsOtherValues(component.slicing!)).toBe(true);
    expect(acceptsOtherValues({ ...component.slicing!, rules: 'closed' })).toBe(false);
  });

  it('an entry shows its children as the slice constrains them, discriminated and fixed ones read-only', async () => {
    const schema = await loader.loadProfile(bpUrl);
    const component = element(schema, 'component');
    const [sys] = component.slicing?.slices ?? [];
    const children = sliceEntryChildren(component.children, sys, component.slicing!);
    const byName = new Map(children.map((c) => [c.element.name, c]));
    expect(byName.has('id')).toBe(false);
    expect(byName.has('extension')).toBe(false);
    expect(byName.get('code')?.fixed).toBe(true);
    expect(byName.get('value')?.fixed).toBe(false);
    // The slice narrows value[x] to Quantity and keeps the base path (for nested inputs).
    expect(byName.get('value')?.element.types).toEqual(['Quantity']);
    expect(byName.get('value')?.element.path).toBe('component.value[x]');
    expect(byName.get('interpretation')?.fixed).toBe(false);

    // Category VSCat (discriminators coding.code and coding.system): coding read-only, text editable.
    await loader.loadTypes(['CodeableConcept', 'Extension']);
    const category = element(schema, 'category');
    const vscat = category.slicing!.slices[0];
    const cc = sliceEntryChildren(loader.getType('CodeableConcept')!.topLevel, vscat, category.slicing!);
    expect(cc.map((c) => [c.element.name, c.fixed])).toEqual([
      ['coding', true],
      ['text', false],
    ]);

    // A complex extension's inner slice (race ombCategory): url fixed, value[x] a Coding.
    const race = await loader.loadProfile(raceUrl);
    const inner = element(race, 'extension');
    const omb = inner.slicing!.slices.find((s) => s.name === 'ombCategory')!;
    const ext = sliceEntryChildren(loader.getType('Extension')!.topLevel, omb, inner.slicing!);
    expect(ext.map((c) => [c.element.name, c.fixed, c.element.types])).toEqual([
      ['url', true, ['uri']],
      ['value', false, ['Coding']],
    ]);
    // The race profile itself: value[x] is forbidden (max 0) and left out; its sliced extension shown.
    const raceChildren = sliceEntryChildren(
      race.topLevel,
      element(await loader.loadProfile(patientUrl), 'extension').slicing!.slices[0],
      element(await loader.loadProfile(patientUrl), 'extension').slicing!,
    );
    expect(raceChildren.map((c) => c.element.name)).toEqual(['url', 'extension']);
  });

  it("a slice's fixed values inside a child (the component Quantity's system and code) make a nested slice", async () => {
    const schema = await loader.loadProfile(bpUrl);
    const component = element(schema, 'component');
    const [sys] = component.slicing?.slices ?? [];
    const children = sliceEntryChildren(component.children, sys, component.slicing!);
    const value = children.find((c) => c.element.name === 'value')!.element;
    const nested = nestedSliceConstraints(sys, value);
    expect(nested?.types.map((t) => t.code)).toEqual(['Quantity']);
    expect(nested?.elements.get('system')?.fixedValue?.value).toBe('http://unitsofmeasure.org');
    expect(nested?.elements.get('code')?.fixedValue?.value).toBe('mm[Hg]');
    await loader.loadTypes(['Quantity']);
    const parts = sliceEntryChildren(loader.getType('Quantity')!.topLevel, nested!, {
      discriminators: [],
      rules: 'open',
      ordered: false,
      slices: [nested!],
    });
    expect(parts.map((p) => [p.element.name, p.fixed])).toEqual([
      ['value', false],
      ['comparator', false],
      ['unit', false],
      ['system', true],
      ['code', true],
    ]);
    // Nothing fixed below: no nested slice (the ordinary input is used).
    const interpretation = children.find((c) => c.element.name === 'interpretation')!.element;
    expect(nestedSliceConstraints(sys, interpretation)).toBeUndefined();
    const code = children.find((c) => c.element.name === 'code')!.element;
    expect(nestedSliceConstraints(sys, code)).toBeUndefined();
  });

  it('a new entry of a profiled extension slice starts with its url and its required nested slices', async () => {
    const patient = await loader.loadProfile(patientUrl);
    const race = element(patient, 'extension').slicing!.slices.find((s) => s.name === 'race')!;
    expect(profiledSliceInitialValue(race, undefined)).toEqual({ url: raceUrl });
    expect(profiledSliceInitialValue(race, await loader.loadProfile(raceUrl))).toEqual({
      url: raceUrl,
      extension: [{ url: 'text' }],
    });
  });

  it('other values change in place, are removed by identity and added at the end; slice entries keep their positions', () => {
    const a = { code: { text: 'a' } };
    const b = { code: { text: 'b' } };
    const items = [a, systolic, b, diastolic];
    const positions = [0, 2];
    const edited = { code: { text: 'b2' } };
    expect(replaceOtherValues(items, positions, [a, b], [a, edited])).toEqual([a, systolic, edited, diastolic]);
    expect(replaceOtherValues(items, positions, [a, b], [b])).toEqual([systolic, b, diastolic]);
    expect(replaceOtherValues(items, positions, [a, b], [a])).toEqual([a, systolic, diastolic]);
    const added = { code: { text: 'c' } };
    expect(replaceOtherValues(items, positions, [a, b], [a, b, added])).toEqual([a, systolic, b, diastolic, added]);
  });

  it('required fixed top-level values are set for a new resource, never over an existing value', async () => {
    const schema = await loader.loadProfile(bpUrl);
    await loader.loadElementTypes(schema);
    const lookup = (type: string) => loader.getType(type);
    const model = toFormModel({ resourceType: 'Observation' } as never, schema, lookup);
    expect(applyFixedDefaults(model, schema, lookup)).toBe(1);
    expect(fromFormModel(model)).toEqual({
      resourceType: 'Observation',
      code: { coding: [{ system: 'http://loinc.org', code: '85354-9' }] },
    });
    expect(applyFixedDefaults(model, schema, lookup)).toBe(0);
  });
});
