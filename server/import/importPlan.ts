import type { Bundle, BundleEntry, Resource } from '@medplum/fhirtypes';

/** One request the importer will send: a batch or transaction Bundle, and where its entries came from. */
export interface ImportRequest {
  file: string;
  bundle: Bundle;
  /** For each entry, a human location: `entry 12` or `line 40`. */
  origins: string[];
}

export interface ImportProblem {
  file: string;
  where: string;
  message: string;
}

export interface ImportPlan {
  requests: ImportRequest[];
  problems: ImportProblem[];
  resourceCount: number;
}

/**
 * Turns the text of one file into requests: transaction and batch Bundles go as they are;
 * collection (and other) Bundles and NDJSON lines become batches of at most `chunkSize` entries,
 * keeping ids with PUT so that references between them still hold. A batch, not a transaction:
 * one bad line should not throw away the 199 good ones sent with it.
 */
export function planFile(file: string, text: string, chunkSize = 200): ImportPlan {
  if (/\.ndjson$/i.test(file)) return planNdjson(file, text, chunkSize);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return {
      requests: [],
      problems: [{ file, where: 'file', message: `Not valid JSON: ${(error as Error).message}` }],
      resourceCount: 0,
    };
  }
  const resource = parsed as Resource;
  if (resource?.resourceType !== 'Bundle') {
    if (typeof resource?.resourceType === 'string') {
      return chunked(file, [{ resource, origin: 'file' }], chunkSize);
    }
    return {
      requests: [],
      problems: [{ file, where: 'file', message: 'Not a FHIR resource (no resourceType)' }],
      resourceCount: 0,
    };
  }
  const bundle = resource as Bundle;
  const entries = bundle.entry ?? [];
  if (bundle.type === 'transaction' || bundle.type === 'batch') {
    return {
      requests: [{ file, bundle, origins: entries.map((_, i) => `entry ${i}`) }],
      problems: [],
      resourceCount: entries.length,
    };
  }
  const items = entries
    .map((entry, i) => ({ resource: entry.resource, origin: `entry ${i}`, fullUrl: entry.fullUrl }))
    .filter(
      (item): item is { resource: Resource; origin: string; fullUrl: string | undefined } =>
        item.resource !== undefined,
    );
  return chunked(file, items, chunkSize);
}

function planNdjson(file: string, text: string, chunkSize: number): ImportPlan {
  const items: { resource: Resource; origin: string }[] = [];
  const problems: ImportProblem[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    try {
      const resource = JSON.parse(line) as Resource;
      if (typeof resource?.resourceType !== 'string') throw new Error('no resourceType');
      items.push({ resource, origin: `line ${index + 1}` });
    } catch (error) {
      problems.push({ file, where: `line ${index + 1}`, message: `Not a FHIR resource: ${(error as Error).message}` });
    }
  });
  const plan = chunked(file, items, chunkSize);
  return { ...plan, problems: [...problems, ...plan.problems] };
}

function chunked(
  file: string,
  items: { resource: Resource; origin: string; fullUrl?: string }[],
  chunkSize: number,
): ImportPlan {
  const requests: ImportRequest[] = [];
  for (let start = 0; start < items.length; start += chunkSize) {
    const slice = items.slice(start, start + chunkSize);
    const entry: BundleEntry[] = slice.map(({ resource, fullUrl }) => ({
      ...(fullUrl ? { fullUrl } : {}),
      resource,
      request: resource.id
        ? { method: 'PUT', url: `${resource.resourceType}/${resource.id}` }
        : { method: 'POST', url: resource.resourceType },
    }));
    requests.push({
      file,
      bundle: { resourceType: 'Bundle', type: 'batch', entry },
      origins: slice.map((s) => s.origin),
    });
  }
  return { requests, problems: [], resourceCount: items.length };
}
