import type { OperationOutcomeIssue } from '@medplum/fhirtypes';
import { redirectUriProblem } from '../../data-provider/rules';

/**
 * What a ClientApplication must satisfy beyond its structure: every address it registers for
 * authorization codes is https (or http on loopback). A `javascript:` or `data:` address would run
 * in the sign-in page with the user's session when the code is handed over.
 */
export function validateClientApplication(client: Record<string, unknown>): OperationOutcomeIssue[] {
  const issues: OperationOutcomeIssue[] = [];
  const check = (address: unknown, expression: string) => {
    if (typeof address !== 'string') return;
    const problem = redirectUriProblem(address);
    if (problem)
      issues.push({ severity: 'error', code: 'value', details: { text: problem }, expression: [expression] });
  };
  check(client.redirectUri, 'ClientApplication.redirectUri');
  // The structure check reports a redirectUris that is not a list; only its strings are looked at here.
  if (Array.isArray(client.redirectUris))
    client.redirectUris.forEach((address, index) => check(address, `ClientApplication.redirectUris[${index}]`));
  return issues;
}
