import type { OperationOutcome } from '@medplum/fhirtypes';

/** `Patient.name[0].given[1]` → `Patient.name.given`: issue paths compared without array indexes. */
export function stripIndexes(expression: string): string {
  return expression.replace(/\[\d+\]/g, '');
}

/** An issue's text: details.text, else diagnostics, else its code. */
export function issueText(issue: NonNullable<OperationOutcome['issue']>[number]): string {
  return issue.details?.text ?? issue.diagnostics ?? issue.code ?? 'Unknown error';
}

/**
 * Issues by element path (first expression, indexes ignored) and the issues that name no element
 * of the form (shown above it).
 */
export function outcomeErrors(
  outcome: OperationOutcome | undefined,
  knownPaths: (path: string) => boolean,
): { byPath: Map<string, string>; general: string[] } {
  const byPath = new Map<string, string>();
  const general: string[] = [];
  for (const issue of outcome?.issue ?? []) {
    if (issue.severity !== 'error' && issue.severity !== 'fatal') continue;
    const text = issueText(issue);
    const path = [...(issue.expression ?? []), ...(issue.location ?? [])].map(stripIndexes).find(knownPaths);
    if (path) byPath.set(path, byPath.has(path) ? `${byPath.get(path)}; ${text}` : text);
    else general.push(text);
  }
  return { byPath, general };
}
