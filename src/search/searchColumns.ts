import type { CodeableConcept, Coding, HumanName, Reference, Resource } from '@medplum/fhirtypes';
import { formatDateTime, formatHumanName } from '../../data-provider/formatting';
import { formatTypedValue, formatUntypedValue } from '../datatypes/formatValue';
import { choiceKey, findElement, searchColumn, searchParameterPaths, valuesAtPath } from '../../schema-engine';
import type { SearchParameterModel, TypeSchema } from '../resources/typeSchema';
import { columnFhirpathExpression, fhirpathColumnReader, type TypedValue } from './fhirpathColumns';

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

/** The search parameter a column sorts by: `_id`, `_lastUpdated`, a code, or the first over the element. */
export function columnSearchParameter(
  field: string,
  schema: TypeSchema | undefined,
  parameters: readonly SearchParameterModel[],
): SearchParameterModel | undefined {
  return columnSearchParameters(field, schema, parameters)[0];
}

/**
 * The search parameters a column filters by: the one named like the field, else those whose every
 * path lies within the column's element. A choice column has one per type (Observation `value[x]`:
 * value-concept, value-date, value-quantity, value-string); parameters that also reach elsewhere
 * (combo-value-quantity reaches component.value too) belong to no single column.
 */
export function columnSearchParameters(
  field: string,
  schema: TypeSchema | undefined,
  parameters: readonly SearchParameterModel[],
): SearchParameterModel[] {
  const code = field === 'id' ? '_id' : field;
  const direct = parameters.find((parameter) => parameter.code === code);
  if (direct) return [direct];
  if (!schema || field.startsWith('_')) return [];
  const element = field.replace(/\[x\]$/, '');
  // A choice element's values live under `value` + type (valueQuantity, valueCodeableConcept...).
  const choiceKeys = field.endsWith('[x]')
    ? (schema.elements.get(field)?.types ?? []).map((type) => choiceKey(element, type))
    : [];
  const within = (path: string) =>
    [element, ...choiceKeys].some((root) => path === root || path.startsWith(`${root}.`));
  return parameters.filter((parameter) => {
    const paths = searchParameterPaths(parameter.expression, schema.type);
    return paths.length > 0 && paths.every(within);
  });
}

/** A column's display text for one resource: the values of its element(s) or search parameter, by type. */
export function fieldText(
  resource: Resource,
  field: string,
  schema: TypeSchema | undefined,
  parameters: readonly SearchParameterModel[] = [],
): string {
  return columnFormatter(field, schema, parameters)(resource);
}

/** Names of referenced resources by `Type/id`, for references that carry no `display` of their own. */
export type ReferenceNames = ReadonlyMap<string, string>;

interface TypedPath {
  path: string;
  type: string | undefined;
}

/** The paths a column reads and the FHIR type of each, resolved once per column. */
function columnPaths(field: string, schema: TypeSchema, parameters: readonly SearchParameterModel[]): TypedPath[] {
  const column = searchColumn(schema, field.replace(/\[x\]$/, ''), parameters);
  const element = schema.elements.get(field);
  const paths = element?.isChoice ? element.types.map((type) => choiceKey(element.name, type)) : column.paths;
  return paths.map((path) => {
    const model = findElement(schema, path);
    const type = model?.isChoice ? model.types.find((t) => choiceKey(model.name, t) === path) : model?.types[0];
    return { path, type };
  });
}

/** The paths of a column whose values are of one of `types` (Claim `patient`: Reference). */
function columnPathsOfTypes(
  field: string,
  schema: TypeSchema | undefined,
  parameters: readonly SearchParameterModel[],
  types: ReadonlySet<string>,
): { path: string; type: string }[] {
  if (!schema || field.startsWith('_') || field === 'id' || field === 'meta.versionId') return [];
  return columnPaths(field, schema, parameters).filter(
    (typed): typed is { path: string; type: string } => typed.type !== undefined && types.has(typed.type),
  );
}

const REFERENCE_TYPES: ReadonlySet<string> = new Set(['Reference']);
const CODED_TYPES: ReadonlySet<string> = new Set(['CodeableConcept', 'Coding']);

/** The paths of a column whose values are References (Claim `patient`, Observation `performer`). */
export function columnReferencePaths(
  field: string,
  schema: TypeSchema | undefined,
  parameters: readonly SearchParameterModel[] = [],
): string[] {
  return columnPathsOfTypes(field, schema, parameters, REFERENCE_TYPES).map(({ path }) => path);
}

/** The paths of a column whose values are codings (Claim `type`, Encounter `class`), with their type. */
export function columnCodedPaths(
  field: string,
  schema: TypeSchema | undefined,
  parameters: readonly SearchParameterModel[] = [],
): { path: string; type: string }[] {
  return columnPathsOfTypes(field, schema, parameters, CODED_TYPES);
}

/** The key of a code in `CodeDisplays`. */
export const codeKey = (system: string, code: string): string => `${system}|${code}`;

/** What the code systems call the page's codes, by `system|code`, for codings without a display. */
export type CodeDisplays = ReadonlyMap<string, string>;

/** What a page learnt about its values once shown: names of references, displays of codes. */
export interface ColumnNames {
  references: ReferenceNames;
  codes: CodeDisplays;
}

const NO_NAMES: ColumnNames = { references: new Map(), codes: new Map() };

/** The codings of a value that nothing names yet: no text, no display on any coding. */
export function unnamedCodings(value: unknown, type: string): Coding[] {
  if (type === 'Coding') return (value as Coding).display?.trim() ? [] : [value as Coding];
  const concept = value as CodeableConcept;
  const codings = concept.coding ?? [];
  if (concept.text?.trim() || codings.some((coding) => coding.display?.trim())) return [];
  return codings;
}

/** A coding that only its code system names, with that name. */
export interface LookedUpCoding {
  system: string;
  code: string;
  display: string;
}

/**
 * The coding a value is shown by when nothing in the record names it: the first of its codings
 * that `codes` has a display for. The list's cells and the Details tab both name codes by it.
 */
export function lookedUpCoding(value: unknown, type: string, codes: CodeDisplays): LookedUpCoding | undefined {
  if (codes.size === 0) return undefined;
  for (const { system, code } of unnamedCodings(value, type)) {
    const display = system && code ? codes.get(codeKey(system, code)) : undefined;
    if (system && code && display) return { system, code, display };
  }
  return undefined;
}

/** Names a person no longer goes by: said as such, or a list reads "Ada King, Ada Byron" as two people. */
const FORMER_NAME_USES = new Set(['old', 'maiden']);

function formatColumnValue(value: unknown, type: string | undefined, names: ColumnNames): string {
  if (type === 'HumanName' && FORMER_NAME_USES.has((value as HumanName).use ?? '')) {
    return formatHumanName(value as HumanName, { prefix: true, suffix: true, use: true });
  }
  if (type === 'Reference') {
    const reference = value as Reference;
    if (!reference.display && reference.reference) {
      const name = names.references.get(reference.reference);
      if (name) return name;
    }
  }
  if (type === 'CodeableConcept' || type === 'Coding') {
    const named = lookedUpCoding(value, type, names.codes);
    if (named) return named.display;
  }
  return type ? formatTypedValue(value, type) : formatUntypedValue(value);
}

/**
 * The values one column shows for a resource, each with its FHIR type. A search parameter whose
 * expression is more than element paths (an extension, a `where`) is evaluated by FHIRPath
 * (`fhirpathColumns.ts`) once the engine is loaded; element paths are walked.
 */
function columnReader(
  field: string,
  schema: TypeSchema,
  parameters: readonly SearchParameterModel[],
): (resource: Resource) => TypedValue[] {
  const expression = columnFhirpathExpression(field, schema.type, parameters);
  const evaluate = expression ? fhirpathColumnReader(expression) : undefined;
  if (evaluate) return evaluate;
  const typed = columnPaths(field, schema, parameters);
  return (resource) =>
    typed.flatMap(({ path, type }) => valuesAtPath(resource, path).map((value) => ({ value, type })));
}

/**
 * The display text function of one column. The column's paths and their types are resolved once,
 * so a page of 1,000 rows does not look up the search parameters and elements again per cell.
 * A reference without a display shows the name in `names` (the page's referenced resources) when
 * there is one, else the reference itself; a code without a display, what its code system calls it.
 */
export function columnFormatter(
  field: string,
  schema: TypeSchema | undefined,
  parameters: readonly SearchParameterModel[] = [],
  names: ColumnNames = NO_NAMES,
): (resource: Resource) => string {
  if (field === '_id' || field === 'id') return (resource) => resource.id ?? '';
  if (field === '_lastUpdated') {
    return (resource) => (resource.meta?.lastUpdated ? formatDateTime(resource.meta.lastUpdated) : '');
  }
  if (field === 'meta.versionId') return (resource) => resource.meta?.versionId ?? '';
  if (!schema) {
    return (resource) => formatUntypedValue((resource as unknown as Record<string, unknown>)[field]);
  }
  const read = columnReader(field, schema, parameters);
  return (resource) =>
    read(resource)
      .map(({ value, type }) => formatColumnValue(value, type, names))
      .filter(Boolean)
      .join(', ');
}

const STORED_TYPES: ReadonlySet<string> = new Set(['date', 'dateTime', 'instant', 'time']);

/** Datatypes whose display text holds no date: shown as the table shows them. */
const DATELESS_TYPES: ReadonlySet<string> = new Set([
  'HumanName',
  'Address',
  'ContactPoint',
  'Identifier',
  'CodeableConcept',
  'Coding',
  'Quantity',
  'Age',
  'Count',
  'Distance',
  'Duration',
  'SimpleQuantity',
  'MoneyQuantity',
  'Money',
  'Range',
  'Ratio',
  'Reference',
  'Attachment',
  'Annotation',
  'boolean',
  'string',
  'markdown',
  'code',
  'id',
  'uri',
  'url',
  'canonical',
  'oid',
  'uuid',
  'integer',
  'positiveInt',
  'unsignedInt',
  'decimal',
  'base64Binary',
]);

/** A Period as an ISO 8601 interval of its stored values, `..` for an open end (ISO 8601-2). */
function periodData(period: { start?: unknown; end?: unknown }): string {
  if (period.start === undefined && period.end === undefined) return '';
  return `${period.start === undefined ? '..' : String(period.start)}/${period.end === undefined ? '..' : String(period.end)}`;
}

/** Keys a one-line text leaves out (as `formatUntypedValue` does): ids, extensions, `_field` twins. */
const unreadableKey = (key: string) =>
  key === 'id' || key === 'extension' || key === 'modifierExtension' || key.startsWith('_');

/**
 * How `formatUntypedValue` reads an object of unknown type, in its order: a known datatype (whose
 * text holds no date), a Period, or an element whose values are listed (a backbone element).
 */
function untypedShape(record: Record<string, unknown>): 'datatype' | 'period' | 'element' {
  const has = (key: string) => key in record;
  if (
    has('family') ||
    has('given') ||
    has('coding') ||
    (has('text') && Object.keys(record).length === 1) ||
    has('reference') ||
    has('display') ||
    (has('system') && has('code') && !has('value')) ||
    (has('value') && (has('unit') || has('code')))
  ) {
    return 'datatype';
  }
  if (has('start') || has('end')) return 'period';
  if (has('line') || has('city') || (has('system') && has('value'))) return 'datatype';
  return 'element';
}

/** A value of unknown type as data: the table's text, with dates and periods as stored. */
function untypedData(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(untypedData).filter(Boolean).join(', ');
  if (typeof value !== 'object') return String(value);
  const record = value as Record<string, unknown>;
  switch (untypedShape(record)) {
    case 'datatype':
      return formatUntypedValue(record);
    case 'period':
      return periodData(record);
    default:
      return Object.entries(record)
        .filter(([key]) => !unreadableKey(key))
        .map(([, entry]) => untypedData(entry))
        .filter(Boolean)
        .join(' · ');
  }
}

/** One value as data: dates, times and periods as stored (ISO 8601), other types as the table has them. */
function dataValue(value: unknown, type: string | undefined): string {
  if (value === undefined || value === null) return '';
  if (type && STORED_TYPES.has(type)) return String(value);
  if (type === 'Period') return periodData(value as { start?: unknown; end?: unknown });
  if (type && DATELESS_TYPES.has(type)) return formatColumnValue(value, type, NO_NAMES);
  return untypedData(value);
}

/**
 * The data text function of one column, for export: what the table shows, except that dates,
 * date-times and instants are written as the record stores them (`2026-11-03T11:00:00Z`,
 * `2026-11-03`), a Period as an ISO 8601 interval, and no looked-up names stand in for stored
 * values. An export is data, read by other programs, not a screen.
 */
export function columnDataFormatter(
  field: string,
  schema: TypeSchema | undefined,
  parameters: readonly SearchParameterModel[] = [],
): (resource: Resource) => string {
  if (field === '_id' || field === 'id') return (resource) => resource.id ?? '';
  if (field === '_lastUpdated' || field === 'meta.lastUpdated') return (resource) => resource.meta?.lastUpdated ?? '';
  if (field === 'meta.versionId') return (resource) => resource.meta?.versionId ?? '';
  if (field === 'resourceType') return (resource) => resource.resourceType;
  if (!schema) return (resource) => untypedData((resource as unknown as Record<string, unknown>)[field]);
  const read = columnReader(field, schema, parameters);
  return (resource) =>
    read(resource)
      .map(({ value, type }) => dataValue(value, type))
      .filter(Boolean)
      .join(', ');
}

/** Fields offered in the Fields dialog: the fixed ones and every top-level element. */
export function availableFields(schema: TypeSchema | undefined): string[] {
  const fields = ['_id', '_lastUpdated', 'meta.versionId'];
  if (!schema) return fields;
  for (const element of schema.topLevel) {
    if (element.path === 'id' || element.path === 'meta') continue;
    fields.push(element.path);
  }
  return fields;
}
