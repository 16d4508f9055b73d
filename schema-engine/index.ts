// Public surface of the schema engine: StructureDefinitions and SearchParameters → typed model,
// validation shared by browser and server, filter operators and columns, and the editor's form model.
// Pure TypeScript (no React, no Node APIs): usable in the browser and in the server.

// Model
export type {
  DiscriminatorType,
  ElementBinding,
  ElementConstraint,
  ElementModel,
  ElementType,
  SearchParameterModel,
  SliceModel,
  SlicingDiscriminator,
  SlicingModel,
  TypedValue,
  TypeSchema,
} from './model/schemaTypes';
export { buildTypeSchema, choiceKey, isPrimitiveType, parseMax } from './model/buildTypeSchema';
export { isReadOnlyPath, READ_ONLY_PATHS } from './model/readOnlyElements';
export {
  notImplemented,
  SchemaError,
  STRUCTURE_DEFINITION_NOT_FOUND,
  STRUCTURE_DEFINITION_TYPE_MISSING,
} from './model/schemaErrors';

// Loading
export { baseTypeUrls, type SchemaSource } from './loading/schemaSource';
export { memorySchemaSource, type SourceCallLog } from './loading/memorySchemaSource';
export {
  dropNulls,
  graphqlSchemaSource,
  SEARCH_PARAMETER_QUERY,
  STRUCTURE_DEFINITION_FIELDS,
  structureDefinitionQuery,
  type GraphqlClient,
} from './loading/graphqlSchemaSource';
export {
  SchemaLoader,
  schemaFromDefinition,
  SEARCH_PARAMETER_PAGE_SIZE,
  toSearchParameterModel,
} from './loading/schemaLoader';

// Search: operators, date shortcuts, columns
export {
  filterOperatorsFor,
  isFilterableType,
  OPERATOR_LABELS,
  unknownSearchParameterTypeMessage,
} from './search/filterOperators';
export { DATE_HELPERS, dateHelperFilters, type DateHelper, type DateHelperKey } from './search/dateHelpers';
export {
  columnValues,
  findElement,
  searchColumn,
  searchParameterPaths,
  valuesAtPath,
  type SearchColumn,
} from './search/searchColumns';

// Validation
export type {
  SchemaResolver,
  ValidateOptions,
  ValidationIssue,
  ValueSetCodeLookup,
} from './validation/validationTypes';
export { validateResource, issuesToOutcome } from './validation/validateResource';
export { valueSetExpandLookup, type ValueSetExpander } from './validation/valueSetExpandLookup';

// Form model
export type { FormField, FormObject, FormValue, JsonPatchOperation, TypeLookup } from './form/formTypes';
export {
  addValue,
  canAddValue,
  canRemoveValue,
  emptyValue,
  fromFormModel,
  removeValue,
  switchChoiceType,
  toFormModel,
} from './form/formModel';
export { applyFixedDefaults, applySliceDefaults, matchesSlice, sliceInitialValue, sliceOf } from './form/slices';
export {
  acceptsOtherValues,
  canAddToSlice,
  canRemoveFromSlice,
  groupBySlice,
  nestedSliceConstraints,
  profiledSliceInitialValue,
  replaceOtherValues,
  sliceEntryChildren,
  sliceInsertionIndex,
  type SliceEntryChild,
  type SliceGroups,
} from './form/sliceFields';
export { matchesPattern } from './form/patternMatch';
export { createJsonPatch, deepEqual } from './form/jsonPatch';
export { loadFormTypes } from './form/loadFormTypes';

// Benchmark hook
export { buildLargestResourceSchema, LARGEST_BASE_RESOURCES } from './bench/schemaBenchmark';
