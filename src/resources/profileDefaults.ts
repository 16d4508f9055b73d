import type { Resource } from '@medplum/fhirtypes';
import {
  applyFixedDefaults,
  applySliceDefaults,
  fromFormModel,
  toFormModel,
  type SchemaLoader,
  type TypeSchema,
} from '../../schema-engine';

/**
 * A new resource for a profiled form: required elements the profile fixes set (e.g. the blood pressure
 * code), and the profile's slices pre-filled up to their min with their fixed values (e.g. US Core blood pressure's systolic and diastolic components), via the engine's
 * form model. Returns the resource unchanged when the profile asks for nothing.
 */
export async function withProfileDefaults(
  loader: SchemaLoader,
  resource: Resource,
  schema: TypeSchema,
): Promise<Resource> {
  await loader.loadElementTypes(schema);
  const lookup = (type: string) => loader.getType(type);
  const model = toFormModel(resource, schema, lookup);
  const changed = applyFixedDefaults(model, schema, lookup) + applySliceDefaults(model, schema, lookup);
  return changed > 0 ? fromFormModel<Resource>(model) : resource;
}
