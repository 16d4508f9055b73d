/**
 * FHIR R4 writes many search parameters with FHIRPath's `as` on paths that can hold several
 * values — `(Observation.component.value as Quantity)`, `(X.useContext.value as CodeableConcept)`,
 * `(Goal.target.due as date)` — and `as` refuses a collection of more than one item. Evaluated as
 * written, a blood-pressure panel (two components) indexes no component value at all, and a
 * ValueSet with two use contexts no context, so `component-value-quantity=gt140` never finds one.
 * FHIR R5 rewrote these expressions with `ofType()`, which keeps every item of the type; other
 * servers (HAPI, Medplum) index them that way too. The index does the same: each `as` on a path
 * becomes `ofType`, which gives the same result for a single item and every matching item of a
 * collection.
 *
 * A cast to a System type (`code-value-date`'s `value.as(DateTime)`) matches no FHIR element in
 * fhirpath.js — a FHIR `dateTime` is not a System `DateTime` to `as` — so R4's date component
 * indexed Periods only; it is read as the FHIR primitive it means (`ofType(dateTime)`). Quantity
 * names both and stays.
 */

const path = '[A-Za-z][A-Za-z0-9]*(?:\\.[A-Za-z][A-Za-z0-9]*)*';
const typeName = '[A-Za-z][A-Za-z0-9]*';
/** System types and the FHIR primitive each stands for in a search parameter's cast. */
const fhirTypeOf: Record<string, string> = {
  Boolean: 'boolean',
  String: 'string',
  Integer: 'integer',
  Decimal: 'decimal',
  Date: 'date',
  DateTime: 'dateTime',
  Time: 'time',
};

const parenthesized = new RegExp(`\\(\\s*(${path})\\s+as\\s+(${typeName})\\s*\\)`, 'g');
const bare = new RegExp(`^\\s*(${path})\\s+as\\s+(${typeName})\\s*$`);
const asFunction = new RegExp(`\\.as\\(\\s*(${typeName})\\s*\\)`, 'g');

/** One branch of a search parameter's expression with each type cast on a path written as `ofType`. */
export function castsAsTypeFilters(branch: string): string {
  const ofType = (type: string) => `ofType(${Object.hasOwn(fhirTypeOf, type) ? fhirTypeOf[type] : type})`;
  return branch
    .replace(parenthesized, (_whole, on: string, type: string) => `${on}.${ofType(type)}`)
    .replace(bare, (_whole, on: string, type: string) => `${on}.${ofType(type)}`)
    .replace(asFunction, (_whole, type: string) => `.${ofType(type)}`);
}
