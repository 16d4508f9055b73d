import { badRequest } from '../outcomes/outcomeCatalogue';
import { OperationOutcomeError } from '../outcomes/operationOutcomeError';
import { Operator } from './searchOperator';
import type { IncludeTarget } from './searchRequest';

const resourceTypePattern = /^[A-Z][A-Za-z]+$/;
const searchParamPattern = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

function invalid(parameter: string, value: string, why: string): OperationOutcomeError {
  return new OperationOutcomeError(badRequest(`Invalid ${parameter} "${value}": ${why}`, parameter));
}

/** Checks an include rule; `parameter` (`_include` or `_revinclude`) names it in the error. */
export function validateIncludeTarget(target: IncludeTarget, parameter = '_include'): void {
  const written = formatIncludeTarget(target);
  if ([target.resourceType, target.searchParam, target.targetType].includes('*')) {
    throw invalid(
      parameter,
      written,
      "'*' is not supported; name the ResourceType:search-param to follow, e.g. Observation:subject",
    );
  }
  if (!resourceTypePattern.test(target.resourceType)) {
    throw invalid(parameter, written, 'expected ResourceType:search-param[:target-type]');
  }
  if (!searchParamPattern.test(target.searchParam)) {
    throw invalid(parameter, written, 'expected ResourceType:search-param[:target-type]');
  }
  if (target.targetType !== undefined && !resourceTypePattern.test(target.targetType)) {
    throw invalid(parameter, written, 'the target type must be a resource type');
  }
}

/** `Observation:subject:Patient` → an include target; '*' and other shapes are refused. */
export function parseIncludeTarget(value: string, iterate = false, parameter = '_include'): IncludeTarget {
  if (value.trim() === '*') {
    throw invalid(
      parameter,
      value,
      "'*' is not supported; name the ResourceType:search-param to follow, e.g. Observation:subject",
    );
  }
  const parts = value.split(':');
  if (parts.length < 2 || parts.length > 3) {
    throw invalid(parameter, value, 'expected ResourceType:search-param[:target-type]');
  }
  const [resourceType, searchParam, targetType] = parts;
  const target: IncludeTarget = {
    resourceType,
    searchParam,
    ...(targetType !== undefined ? { targetType } : {}),
    ...(iterate ? { modifier: Operator.ITERATE } : {}),
  };
  validateIncludeTarget(target, parameter);
  return target;
}

export function formatIncludeTarget(target: IncludeTarget): string {
  return [target.resourceType, target.searchParam, ...(target.targetType ? [target.targetType] : [])].join(':');
}
