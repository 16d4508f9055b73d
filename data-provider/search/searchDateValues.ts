import { badRequest } from '../outcomes/outcomeCatalogue';
import { OperationOutcomeError } from '../outcomes/operationOutcomeError';

/**
 * Date-typed search parameters of FHIR R4 that appear on many resource types. Used when the
 * caller has no schema at hand to say which parameters are dates; the schema engine passes its
 * own `isDateParameter` instead.
 */
export const COMMON_DATE_SEARCH_PARAMETERS: ReadonlySet<string> = new Set([
  '_lastUpdated',
  'abatement-date',
  'authored',
  'authoredon',
  'birthdate',
  'created',
  'date',
  'death-date',
  'issued',
  'onset-date',
  'period',
  'received',
  'recorded-date',
  'sent',
]);

/**
 * A search date: year, year-month, date, or a dateTime with hours and minutes, optional seconds
 * and fraction, and an optional zone (search values may omit it, unlike stored instants).
 */
const searchDatePattern =
  /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01])(T([01]\d|2[0-3]):[0-5]\d(:([0-5]\d|60)(\.\d{1,9})?)?(Z|[+-](0\d|1[0-4]):[0-5]\d)?)?)?)?$/;

export function isSearchDateValue(value: string): boolean {
  return searchDatePattern.test(value);
}

/** Throws a 400 outcome naming the parameter when one of the comma-separated values is not a date. */
export function checkDateSearchValue(code: string, value: string): void {
  for (const part of value.split(',')) {
    if (!isSearchDateValue(part)) {
      throw new OperationOutcomeError(
        badRequest(
          `Invalid date "${part}" for search parameter "${code}": expected YYYY, YYYY-MM, YYYY-MM-DD or YYYY-MM-DDThh:mm[:ss][zone]`,
          code,
        ),
      );
    }
  }
}
