/**
 * What is wrong with text parsed in the JSON tab before it can be a resource: it must be one JSON object.
 * `null`, a number, a string or an array parse fine but are no resource (an array used to be told
 * "resourceType and id must stay as they are"; `null` made the Save button throw).
 */
export function jsonShapeProblem(value: unknown): string | undefined {
  if (Array.isArray(value)) return 'The JSON is a list ([…]); it must be one resource, an object ({…}).';
  if (value === null || typeof value !== 'object') {
    return `The JSON is ${value === null ? 'null' : `a ${typeof value}`}; it must be one resource, an object ({…}).`;
  }
  return undefined;
}
