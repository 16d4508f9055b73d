import type { SearchParameterModel } from '../resources/typeSchema';
import { fieldLabel } from './searchColumns';

/** A search parameter as the Fields dialog names a field: "Value Quantity (value-quantity)". */
export function parameterLabel(code: string): string {
  return `${fieldLabel(code)} (${code})`;
}

/**
 * The parameters of the Filters dialog in reading order: by their label, the type's own first and
 * the common `_` ones (ID, Last Updated...) after them, as people look for the type's fields first.
 */
export function sortedFilterParameters(parameters: readonly SearchParameterModel[]): SearchParameterModel[] {
  return [...parameters].sort((a, b) => {
    const common = Number(a.code.startsWith('_')) - Number(b.code.startsWith('_'));
    return common || fieldLabel(a.code).localeCompare(fieldLabel(b.code)) || a.code.localeCompare(b.code);
  });
}
