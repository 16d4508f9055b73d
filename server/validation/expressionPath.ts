/** `/name/0/given/1` → `Patient.name[0].given[1]`: the FHIRPath-style form OperationOutcome issues carry. */
export function instancePathToExpression(resourceType: string, instancePath: string): string {
  let expression = resourceType;
  for (const segment of instancePath.split('/').slice(1)) {
    const key = segment.replace(/~1/g, '/').replace(/~0/g, '~');
    expression += /^\d+$/.test(key) ? `[${key}]` : `.${key}`;
  }
  return expression;
}
