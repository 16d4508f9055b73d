import type { ElementModel, TypeSchema } from '../model/schemaTypes';
import { isPrimitiveType } from '../model/buildTypeSchema';

/** Types whose values carry their own type (`contained`, Bundle.entry.resource): never expanded by element. */
const containerTypes = new Set(['Resource', 'DomainResource']);

/**
 * The child elements of a value of `element` with type `typeCode`: inline backbone children,
 * the `contentReference` target's children, or the datatype's top-level elements when that type is
 * loaded. undefined when the engine does not know the children (the value is kept as opaque data).
 */
export function childElementsOf(
  schema: TypeSchema,
  element: ElementModel,
  typeCode: string,
  lookup: (type: string) => TypeSchema | undefined,
): ElementModel[] | undefined {
  if (element.children.length > 0) return element.children;
  if (element.contentReference) return schema.elements.get(element.contentReference)?.children;
  if (isPrimitiveType(typeCode) || containerTypes.has(typeCode)) return undefined;
  return lookup(typeCode)?.topLevel;
}

/** The schema the children of `typeCode` belong to (for nested backbone / contentReference lookups). */
export function schemaOfChildren(
  schema: TypeSchema,
  element: ElementModel,
  typeCode: string,
  lookup: (type: string) => TypeSchema | undefined,
): TypeSchema {
  if (element.children.length > 0 || element.contentReference) return schema;
  return lookup(typeCode) ?? schema;
}
