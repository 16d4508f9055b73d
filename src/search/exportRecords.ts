import type { Bundle, Resource } from '@medplum/fhirtypes';
import type { SearchParameterModel, TypeSchema } from '../resources/typeSchema';
import { columnDataFormatter, fieldLabel } from './searchColumns';
import { columnsNeedFhirpath, loadColumnFhirpath } from './fhirpathColumns';

/** Export is limited to 1,000 records (app-spec §5, §9). */
export const EXPORT_LIMIT = 1000;

/**
 * Characters that make a spreadsheet read a cell as a formula (=, +, -, @) or that some read past
 * (tab, carriage return): OWASP's CSV injection guidance is to start such a cell with an apostrophe.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV field: formula-like text defused with a leading `'`; quoted per RFC 4180 when it holds a
 * comma, a double quote, CR or LF, with each double quote doubled.
 */
export function csvCell(text: string): string {
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The exported columns: `id` first, `resourceType` next when the records are of several types, then the chosen ones in order. */
export function exportFields(resources: readonly Resource[], fields: readonly string[]): string[] {
  const chosen = fields.filter((field) => field !== '_id' && field !== 'id' && field !== 'resourceType');
  const types = new Set(resources.map((resource) => resource.resourceType));
  return ['_id', ...(types.size > 1 ? ['resourceType'] : []), ...chosen];
}

/**
 * The records as CSV (header row, then one row per resource, CRLF line ends): `id` first, then the
 * shown columns in their order. Values are data, not display: dates and date-times as stored (ISO
 * 8601), references and codes as the record has them. The search parameters are those the table
 * reads with, so a parameter column (value-quantity, an extension) is not empty; a column read by
 * FHIRPath needs the engine loaded first (`prepareCsvColumns`).
 */
export function toCsv(
  resources: Resource[],
  fields: string[],
  schema: TypeSchema | undefined,
  parameters: readonly SearchParameterModel[] = [],
): string {
  const columns = exportFields(resources, fields);
  const rows = [columns.map((field) => csvCell(fieldLabel(field)))];
  const formatters = columns.map((field) => columnDataFormatter(field, schema, parameters));
  for (const resource of resources) rows.push(formatters.map((format) => csvCell(format(resource))));
  return rows.map((row) => row.join(',')).join('\r\n') + '\r\n';
}

/** Loads what the columns need to be read (the FHIRPath engine for an extension column). */
export async function prepareCsvColumns(
  fields: readonly string[],
  schema: TypeSchema | undefined,
  parameters: readonly SearchParameterModel[] | undefined,
): Promise<void> {
  if (columnsNeedFhirpath(fields, schema?.type, parameters)) await loadColumnFhirpath();
}

/** A transaction Bundle that recreates the records elsewhere (PUT by id keeps references intact). */
export function toTransactionBundle(resources: Resource[]): Bundle {
  return {
    resourceType: 'Bundle',
    type: 'transaction',
    entry: resources.map((resource) => {
      // Server-owned metadata would be meaningless on another server.
      const { meta: _meta, ...content } = resource;
      return {
        fullUrl: `urn:uuid:${resource.id}`,
        resource: content as Resource,
        request: { method: 'PUT' as const, url: `${resource.resourceType}/${resource.id}` },
      };
    }),
  };
}
