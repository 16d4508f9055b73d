import type { Resource } from '@medplum/fhirtypes';
import { formatDateTime } from '../../data-provider/formatting';
import { formatTypedValue, formatUntypedValue } from '../datatypes/formatValue';
import type { TypeSchema } from '../resources/typeSchema';

/** Column title of a field: `_id` → ID, `_lastUpdated` → Last Updated, `birthDate` → Birth Date. */
export function fieldLabel(field: string): string {
  if (field === '_id' || field === 'id') return 'ID';
  if (field === '_lastUpdated') return 'Last Updated';
  if (field === 'meta.versionId') return 'Version ID';
  const words = field
    .replace(/^_/, '')
    .replace(/\[x\]$/, '')
    .split('.')
    .pop()!
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[\s-]+/);
  return words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');
}

/** The search parameter a column sorts and filters by (`_id`, `_lastUpdated`, or the same-named one). */
export function fieldSearchCode(field: string): string {
  if (field === 'id') return '_id';
  if (field === 'meta.versionId') return '_lastUpdated';
  return field
    .replace(/\[x\]$/, '')
    .replace(/([a-z])([A-Z])/g, '$1-$2')
    .toLowerCase();
}

/** A column's display text for one resource. */
export function fieldText(resource: Resource, field: string, schema: TypeSchema | undefined): string {
  if (field === '_id' || field === 'id') return resource.id ?? '';
  if (field === '_lastUpdated') return resource.meta?.lastUpdated ? formatDateTime(resource.meta.lastUpdated) : '';
  if (field === 'meta.versionId') return resource.meta?.versionId ?? '';
  const record = resource as unknown as Record<string, unknown>;
  const element = schema?.elements.get(field) ?? schema?.elements.get(`${field}[x]`);
  if (element?.path.endsWith('[x]')) {
    for (const type of element.types) {
      const key = element.name + type.charAt(0).toUpperCase() + type.slice(1);
      if (record[key] !== undefined) return formatTypedValue(record[key], type);
    }
    return '';
  }
  const value = record[field];
  if (value === undefined) return '';
  const type = element?.types[0];
  if (!type) return formatUntypedValue(value);
  const values = Array.isArray(value) ? value : [value];
  return values
    .map((one) => formatTypedValue(one, type))
    .filter(Boolean)
    .join(', ');
}

/** Fields offered in the Fields dialog: the fixed ones and every top-level element. */
export function availableFields(schema: TypeSchema | undefined): string[] {
  const fields = ['_id', '_lastUpdated', 'meta.versionId'];
  if (!schema) return fields;
  for (const element of schema.elements.values()) {
    if (element.path.includes('.') || element.path === 'id' || element.path === 'meta') continue;
    fields.push(element.path.replace('[x]', ''));
  }
  return fields;
}
