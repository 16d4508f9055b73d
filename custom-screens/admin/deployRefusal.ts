import type { OperationOutcome, OperationOutcomeIssue } from '@medplum/fhirtypes';
import { isOperationOutcome, normalizeErrorString } from '../../data-provider/outcomes';

/** Paths that name the code itself: not worth repeating after a message shown under the code. */
const codePaths = new Set(['code', 'Bot.code', 'Parameters.parameter.code']);

function outcomeOf(error: unknown): OperationOutcome | undefined {
  if (isOperationOutcome(error)) return error;
  const outcome = (error as { outcome?: unknown } | null)?.outcome;
  return isOperationOutcome(outcome) ? outcome : undefined;
}

function issueText(issue: OperationOutcomeIssue): string {
  const text = issue.details?.text ?? issue.diagnostics ?? 'Refused';
  // Where the parser stopped ("line 3, column 14") may come in `location` or in other paths.
  const where = [...(issue.location ?? []), ...(issue.expression ?? [])].filter(
    (path) => path.length > 0 && !codePaths.has(path) && !text.includes(path),
  );
  return where.length > 0 ? `${text} (${where.join(', ')})` : text;
}

/**
 * A refused `$deploy` as what to show: every issue of the server's OperationOutcome (a syntax
 * error with its line and column, a missing or too large code, a refusal) belongs under the code
 * field, which is the only thing the dialog sends; what carries no OperationOutcome (the network
 * failed) is a general message.
 */
export function deployRefusal(error: unknown): { code?: string; general?: string } {
  const outcome = outcomeOf(error);
  const issues = outcome?.issue ?? [];
  if (issues.length === 0) return { general: normalizeErrorString(error) };
  const errors = issues.filter((issue) => issue.severity === 'error' || issue.severity === 'fatal');
  return { code: (errors.length > 0 ? errors : issues).map(issueText).join('\n') };
}

/**
 * Where in the code a message points ("line 3, column 14", "line 3:14", "(3:14)"), as an offset
 * into `code` to put the caret at; undefined when it names no line or a line the code lacks.
 */
export function refusalOffset(code: string, message: string): number | undefined {
  const found = /line\s+(\d+)(?:\s*(?:,\s*col(?:umn)?\s*|:)(\d+))?/i.exec(message);
  if (!found) return undefined;
  const line = Number(found[1]);
  const lines = code.split('\n');
  if (line < 1 || line > lines.length) return undefined;
  const column = found[2] ? Math.max(1, Number(found[2])) : 1;
  const start = lines.slice(0, line - 1).reduce((sum, text) => sum + text.length + 1, 0);
  return start + Math.min(column - 1, lines[line - 1].length);
}
