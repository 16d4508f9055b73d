import { normalizeErrorString, normalizeOperationOutcome } from '../../data-provider/outcomes';

/**
 * A refused request as messages under its form fields: each issue whose expression names one of
 * `fields` goes under that field; the rest form the general message.
 */
export function fieldErrors(
  error: unknown,
  fields: readonly string[],
): { byField: Record<string, string>; general?: string } {
  const outcome = normalizeOperationOutcome(error);
  const byField: Record<string, string> = {};
  const rest: string[] = [];
  for (const issue of outcome.issue ?? []) {
    const text = issue.details?.text ?? issue.diagnostics ?? 'Unknown error';
    const field = issue.expression?.find((expression) => fields.includes(expression));
    if (field && byField[field] === undefined) byField[field] = text;
    else rest.push(text);
  }
  if (Object.keys(byField).length === 0 && rest.length === 0) return { byField, general: normalizeErrorString(error) };
  return { byField, general: rest.length > 0 ? rest.join('; ') : undefined };
}
