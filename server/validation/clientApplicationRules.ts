import type { OperationOutcomeIssue } from '@medplum/fhirtypes';
import { launchUriProblem, redirectUriProblem, tokenLifetimeProblem } from '../../data-provider/rules';

/**
 * What a ClientApplication must satisfy beyond its structure: every address it registers for
 * authorization codes is https (or http on loopback) — a `javascript:` or `data:` address would run
 * in the sign-in page with the user's session when the code is handed over — so is its launch URI
 * (the chart sends a clinician's browser there to start an EHR launch), and its token
 * lifetimes can be read (an unreadable one would silently fall back to the default).
 */
export function validateClientApplication(client: Record<string, unknown>): OperationOutcomeIssue[] {
  const issues: OperationOutcomeIssue[] = [];
  const check = (address: unknown, expression: string, problemOf = redirectUriProblem) => {
    if (typeof address !== 'string') return;
    const problem = problemOf(address);
    if (problem)
      issues.push({ severity: 'error', code: 'value', details: { text: problem }, expression: [expression] });
  };
  check(client.redirectUri, 'ClientApplication.redirectUri');
  // The structure check reports a redirectUris that is not a list; only its strings are looked at here.
  if (Array.isArray(client.redirectUris))
    client.redirectUris.forEach((address, index) => check(address, `ClientApplication.redirectUris[${index}]`));
  check(client.launchUri, 'ClientApplication.launchUri', launchUriProblem);
  for (const field of ['accessTokenLifetime', 'refreshTokenLifetime']) {
    const problem = tokenLifetimeProblem(client[field]);
    if (problem)
      issues.push({
        severity: 'error',
        code: 'value',
        details: { text: problem },
        expression: [`ClientApplication.${field}`],
      });
  }
  return issues;
}
