import { invalidRequest } from './httpErrors';

/** Record fields whose search parameter has another name, for every resource type. */
const commonSortParameters: Readonly<Record<string, string>> = {
  id: '_id',
  lastUpdated: '_lastUpdated',
  'meta.lastUpdated': '_lastUpdated',
  birthDate: 'birthdate',
};

/** Extra field → search parameter names, per resource type (`{ Observation: { effectiveDateTime: 'date' } }`). */
export type SortParameterMap = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** What a search parameter code may look like (letters, digits, `_`, `-`; a leading `_` for the common ones). */
const searchParameterCode = /^_?[A-Za-z][A-Za-z0-9_-]*$/;

/**
 * The `_sort` value for react-admin's sort: the field mapped to its search parameter, `-` for
 * descending. A field no search parameter can stand for (a path into an element) is refused
 * here; a plain name is sent as it is, and the server refuses it if it knows no such parameter —
 * either way the list never quietly sorts by something else.
 */
export function sortParameter(
  resourceType: string,
  sort: { field?: string; order?: string } | undefined,
  extra: SortParameterMap = {},
): string | undefined {
  const field = sort?.field;
  if (!field) return undefined;
  const code = extra[resourceType]?.[field] ?? commonSortParameters[field] ?? field;
  if (!searchParameterCode.test(code)) {
    throw invalidRequest(
      `Cannot sort ${resourceType} by "${field}": no search parameter stands for that field`,
      '_sort',
    );
  }
  return sort?.order === 'DESC' ? `-${code}` : code;
}
