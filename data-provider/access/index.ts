export { adminOnlyFieldsFor } from './adminOnlyFields';
export {
  canPerform,
  canReadResourceType,
  canWriteResourceType,
  changedFields,
  entriesGranting,
  entryGrants,
  hiddenFieldsFor,
  isReadInteraction,
  neverWritableTypes,
  policyEntriesFor,
  projectAdminTypes,
  readInteractions,
  readonlyFieldsFor,
  removeFields,
  restoreFields,
  sharedDefinitionTypes,
  superAdminWritableTypes,
  valuesAtPath,
  wildcardExcludedTypes,
  writableEntriesFor,
  writeInteractions,
  type AccessInteraction,
} from './accessPolicy';
export { fieldsFixedByReadMark, readMarkStatuses } from './readMarkFields';
export { expressionPaths, hiddenFieldsReadBy } from './searchExpressionFields';
export { describeScope } from './scopeDescription';
export {
  isResourceScopeText,
  parseResourceScope,
  resourceScopesOf,
  scopesGranting,
  scopesGrantingSight,
  type ResourceScope,
  type ScopeContext,
} from './smartScopes';
