/**
 * How a search filter compares: FHIR R4 search modifiers (`code:modifier=value`) and value
 * prefixes (`code=ge2020`). The string value is what appears in the query.
 */
export enum Operator {
  // Prefixes, written before the value of number, date and quantity parameters.
  EQUALS = 'eq',
  NOT_EQUALS = 'ne',
  GREATER_THAN = 'gt',
  LESS_THAN = 'lt',
  GREATER_THAN_OR_EQUALS = 'ge',
  LESS_THAN_OR_EQUALS = 'le',
  STARTS_AFTER = 'sa',
  ENDS_BEFORE = 'eb',
  APPROXIMATELY = 'ap',

  // Modifiers, written after the parameter code.
  NOT = 'not',
  CONTAINS = 'contains',
  EXACT = 'exact',
  TEXT = 'text',
  MISSING = 'missing',
  ABOVE = 'above',
  BELOW = 'below',
  IN = 'in',
  NOT_IN = 'not-in',
  OF_TYPE = 'of-type',
  IDENTIFIER = 'identifier',
  /** `subject:Patient=123`: a reference parameter limited to one target type (the filter's `targetType`). */
  TYPE = 'type',

  /** `_include:iterate` / `_revinclude:iterate`: follow the include from included resources too. */
  ITERATE = 'iterate',
}

export const PREFIX_OPERATORS: ReadonlySet<Operator> = new Set([
  Operator.EQUALS,
  Operator.NOT_EQUALS,
  Operator.GREATER_THAN,
  Operator.LESS_THAN,
  Operator.GREATER_THAN_OR_EQUALS,
  Operator.LESS_THAN_OR_EQUALS,
  Operator.STARTS_AFTER,
  Operator.ENDS_BEFORE,
  Operator.APPROXIMATELY,
]);

export const MODIFIER_OPERATORS: ReadonlySet<Operator> = new Set([
  Operator.NOT,
  Operator.CONTAINS,
  Operator.EXACT,
  Operator.TEXT,
  Operator.MISSING,
  Operator.ABOVE,
  Operator.BELOW,
  Operator.IN,
  Operator.NOT_IN,
  Operator.OF_TYPE,
  Operator.IDENTIFIER,
]);
