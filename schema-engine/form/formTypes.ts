import type { ElementModel, SliceModel, TypeSchema } from '../model/schemaTypes';

/** A JSON Patch operation (RFC 6902) as our PATCH endpoint takes it. */
export type JsonPatchOperation =
  | { op: 'add' | 'replace' | 'test'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; from: string; path: string };

/** Synchronous access to already loaded datatypes (SchemaLoader.getType after loadElementTypes). */
export type TypeLookup = (type: string) => TypeSchema | undefined;

/** One value of a form field: a primitive, a nested object, or data the form does not model. */
export type FormValue =
  | { kind: 'primitive'; type: string; value: unknown; extension?: unknown }
  | FormObject
  | { kind: 'opaque'; type: string; value: unknown };

/** An object (resource, datatype or backbone element) in the editor. */
export interface FormObject {
  kind: 'object';
  /** Type code of the object (`Patient`, `HumanName`, `BackboneElement`). */
  type: string;
  /** Path of the object from the resource root with indexes (`Patient.name[0]`), for issue matching. */
  expression: string;
  fields: FormField[];
  /** Keys the schema does not know, kept verbatim in their original order (loss-free saving). */
  extras: Record<string, unknown>;
  /** The original key order, restored on save so an untouched resource is byte-identical. */
  keyOrder: string[];
}

/** One element of an object: its values (always a list, single-valued elements hold 0 or 1). */
export interface FormField {
  element: ElementModel;
  /** Current JSON key; for a choice this is e.g. `valueQuantity` and changes with the chosen type. */
  key: string;
  /** Chosen type code (for choice elements: the one in the key). */
  type: string;
  values: FormValue[];
  /** Primitive extensions of array elements that have no value (`_given` with nulls) live here too. */
  readOnly: boolean;
  /** Slices of this element that the profile defines (for inputs of their own). */
  slices: SliceModel[];
}
