export { adminOnlyFieldsFor } from './adminOnlyFields';
export {
  canPerform,
  canReadResourceType,
  canWriteResourceType,
  changedFields,
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
  type AccessInteraction,
} from './accessPolicy';
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
