import type { SearchParamDefinition } from './searchParameterRegistry';
import type { SearchFilter, SearchRequest, ValueFilter } from './searchRequest';

/**
 * The request as the fields it reads, for the hidden-field check (AccessGuard.checkSearch), which
 * looks at each parameter's expression. A composite's expression names only its items (for
 * `code-value-quantity`, the whole Observation); what it compares is read by its components
 * (`code`, `value.as(Quantity)`), so each composite filter is given an expression that names them
 * too. Requests without composite filters are returned as they are.
 */
export function withCompositeReads(request: SearchRequest): SearchRequest {
  if (!request.filters.some((filter) => isComposite(innerFilter(filter).parameter))) return request;
  return { ...request, filters: request.filters.map(readingComponents) };
}

function innerFilter(filter: SearchFilter): ValueFilter {
  return filter.kind === 'value' ? filter : filter.filter;
}

function isComposite(parameter: ValueFilter['parameter']): parameter is SearchParamDefinition {
  return typeof parameter !== 'string' && parameter.type === 'composite';
}

function readingComponents(filter: SearchFilter): SearchFilter {
  const inner = innerFilter(filter);
  if (!isComposite(inner.parameter)) return filter;
  const read: ValueFilter = {
    ...inner,
    parameter: { ...inner.parameter, expression: componentPaths(inner.parameter) },
  };
  return filter.kind === 'value' ? read : { ...filter, filter: read };
}

/** The composite's own expression and each component's, from the root of the resource. */
function componentPaths(parameter: SearchParamDefinition): string {
  const resourceType = /^[A-Za-z]+/.exec(parameter.expression)?.[0] ?? '';
  const paths = (parameter.components ?? []).map((component) => {
    const expression = component.expression.trim();
    // `%resource.x` reads from the root whatever the item.
    const fromRoot = /^%(resource|rootResource)\b/.exec(expression);
    if (fromRoot) return `${resourceType}${expression.slice(fromRoot[0].length)}`;
    return `${component.itemPath}.${expression}`;
  });
  return [parameter.expression, ...paths].join(' | ');
}
