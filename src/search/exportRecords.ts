import type { Bundle, Resource } from '@medplum/fhirtypes';
import type { SearchParameterModel, TypeSchema } from '../resources/typeSchema';
import { columnFormatter, fieldLabel } from './searchColumns';

/** Export is limited to 1,000 records (app-spec §5, §9). */
export const EXPORT_LIMIT = 1000;

function csvCell(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The shown columns as CSV (header row, then one row per resource), CRLF line ends. The search
 * parameters are those the table formats with, so a parameter column (value-quantity) is not empty.
 */
export function toCsv(
  resources: Resource[],
  fields: string[],
  schema: TypeSchema | undefined,
  parameters: readonly SearchParameterModel[] = [],
): string {
  const rows = [fields.map((field) => csvCell(fieldLabel(field)))];
  const formatters = fields.map((field) => columnFormatter(field, schema, parameters));
  for (const resource of resources) rows.push(formatters.map((format) => csvCell(format(resource))));
  return rows.map((row) => row.join(',')).join('\r\n') + '\r\n';
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
