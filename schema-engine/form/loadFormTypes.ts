import type { Resource } from '@medplum/fhirtypes';
import type { SchemaLoader } from '../loading/schemaLoader';
import { choiceKey, isPrimitiveType } from '../model/buildTypeSchema';
import type { ElementModel, TypeSchema } from '../model/schemaTypes';

type Json = Record<string, unknown>;

const containerTypes = new Set(['Element', 'BackboneElement', 'Resource', 'DomainResource']);

interface Pending {
  schema: TypeSchema;
  children: readonly ElementModel[];
  value: Json;
}

/**
 * Loads the datatypes a resource's form needs: those of the top-level elements (their inputs show
 * even when empty) and, recursively, those of every value present. One round trip per nesting
 * level; only types the resource uses — never the whole definitions set.
 */
export async function loadFormTypes(
  loader: SchemaLoader,
  schema: TypeSchema,
  resource: Resource | Json,
): Promise<void> {
  await loader.loadElementTypes(schema, schema.topLevel);
  let level: Pending[] = [{ schema, children: schema.topLevel, value: resource as Json }];
  while (level.length > 0) {
    const wanted: { pending: Pending; element: ElementModel; type: string; items: Json[] }[] = [];
    for (const pending of level) {
      for (const element of pending.children) {
        for (const type of element.types) {
          const key = element.isChoice ? choiceKey(element.name, type) : element.name;
          const raw = pending.value[key];
          if (raw === undefined || isPrimitiveType(type)) continue;
          const items = (Array.isArray(raw) ? raw : [raw]).filter(
            (v): v is Json => typeof v === 'object' && v !== null,
          );
          if (items.length > 0) wanted.push({ pending, element, type, items });
        }
      }
    }
    const types = [
      ...new Set(wanted.filter((w) => !inline(w.element) && !containerTypes.has(w.type)).map((w) => w.type)),
    ];
    await loader.loadTypes(types);
    const next: Pending[] = [];
    for (const { pending, element, type, items } of wanted) {
      for (const item of items) {
        if (type === 'Resource' || type === 'DomainResource') {
          // Contained resources: their own type.
          if (typeof item.resourceType !== 'string') continue;
          const contained = await loader.loadType(item.resourceType).catch(() => undefined);
          if (contained) {
            await loader.loadElementTypes(contained, contained.topLevel);
            next.push({ schema: contained, children: contained.topLevel, value: item });
          }
          continue;
        }
        if (element.children.length > 0) next.push({ schema: pending.schema, children: element.children, value: item });
        else if (element.contentReference) {
          const target = pending.schema.elements.get(element.contentReference);
          if (target) next.push({ schema: pending.schema, children: target.children, value: item });
        } else {
          const datatype = loader.getType(type);
          if (datatype) next.push({ schema: datatype, children: datatype.topLevel, value: item });
        }
      }
    }
    level = next;
  }
}

function inline(element: ElementModel): boolean {
  return element.children.length > 0 || element.contentReference !== undefined;
}
