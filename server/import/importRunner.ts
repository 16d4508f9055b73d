import type { Bundle, OperationOutcome } from '@medplum/fhirtypes';
import type { ImportProblem, ImportRequest } from './importPlan';

export interface ImportProgress {
  sent: number;
  imported: number;
  failed: number;
}

export interface ImportResult {
  imported: number;
  failed: number;
  problems: ImportProblem[];
  seconds: number;
}

export interface ImportOptions {
  /** FHIR base URL ending with `/`, e.g. `http://localhost:8103/fhir/R4/`. */
  fhirBase: string;
  concurrency: number;
  headers?: Record<string, string>;
  onProgress?: (progress: ImportProgress) => void;
}

/** Posts the planned Bundles, `concurrency` at a time, and collects every failure with its origin. */
export async function runImport(requests: readonly ImportRequest[], options: ImportOptions): Promise<ImportResult> {
  const started = performance.now();
  const progress: ImportProgress = { sent: 0, imported: 0, failed: 0 };
  const problems: ImportProblem[] = [];
  let next = 0;

  const worker = async () => {
    while (next < requests.length) {
      const request = requests[next++];
      const count = request.bundle.entry?.length ?? 0;
      const outcome = await send(request, options);
      progress.sent += count;
      progress.imported += outcome.imported;
      progress.failed += count - outcome.imported;
      problems.push(...outcome.problems);
      options.onProgress?.({ ...progress });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  return {
    imported: progress.imported,
    failed: progress.failed,
    problems,
    seconds: (performance.now() - started) / 1000,
  };
}

async function send(
  request: ImportRequest,
  options: ImportOptions,
): Promise<{ imported: number; problems: ImportProblem[] }> {
  const count = request.bundle.entry?.length ?? 0;
  let response: Response;
  try {
    response = await fetch(options.fhirBase, {
      method: 'POST',
      headers: {
        'content-type': 'application/fhir+json',
        accept: 'application/fhir+json',
        // Only each entry's status and outcome are read: the stored resources need not come back.
        prefer: 'return=minimal',
        ...options.headers,
      },
      body: JSON.stringify(request.bundle),
    });
  } catch (error) {
    return {
      imported: 0,
      problems: [
        { file: request.file, where: 'request', message: `Cannot reach the server: ${(error as Error).message}` },
      ],
    };
  }
  const body = (await response.json().catch(() => undefined)) as Bundle | OperationOutcome | undefined;
  if (!response.ok) {
    return { imported: 0, problems: outcomeProblems(request, body as OperationOutcome | undefined, response.status) };
  }
  // A batch answers 200 with a status per entry.
  const entries = (body as Bundle | undefined)?.entry ?? [];
  const problems: ImportProblem[] = [];
  let imported = 0;
  entries.forEach((entry, index) => {
    const status = Number.parseInt(entry.response?.status ?? '0', 10);
    if (status >= 200 && status < 300) imported++;
    else {
      problems.push({
        file: request.file,
        where: request.origins[index] ?? `entry ${index}`,
        message: describeOutcome(entry.response?.outcome as OperationOutcome | undefined) ?? `HTTP ${status}`,
      });
    }
  });
  if (entries.length === 0) imported = count;
  return { imported, problems };
}

function outcomeProblems(
  request: ImportRequest,
  outcome: OperationOutcome | undefined,
  status: number,
): ImportProblem[] {
  const issues = outcome?.issue ?? [];
  if (issues.length === 0) return [{ file: request.file, where: 'bundle', message: `HTTP ${status}` }];
  return issues.map((issue) => {
    const expression = issue.expression?.[0] ?? '';
    const index = /^Bundle\.entry\[(\d+)\]/.exec(expression)?.[1];
    const where = index !== undefined ? (request.origins[Number(index)] ?? `entry ${index}`) : 'bundle';
    const text = issue.details?.text ?? issue.diagnostics ?? issue.code;
    return { file: request.file, where, message: expression ? `${text} (${expression})` : String(text) };
  });
}

function describeOutcome(outcome: OperationOutcome | undefined): string | undefined {
  const texts = (outcome?.issue ?? []).map((issue) => {
    const text = issue.details?.text ?? issue.diagnostics ?? issue.code;
    return issue.expression?.length ? `${text} (${issue.expression.join(', ')})` : text;
  });
  return texts.length > 0 ? texts.join('; ') : undefined;
}
