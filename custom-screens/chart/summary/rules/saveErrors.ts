import { normalizeOperationOutcome } from '../../../../data-provider/outcomes';
import { outcomeErrors } from '../../../../src/resources/outcomeErrors';

export interface SaveErrors<K extends string> {
  /** Server messages under the field whose element the issue names. */
  fields: Partial<Record<K, string>>;
  /** Messages that name no field of the modal, shown at its top. */
  general: string[];
}

/**
 * A failed save's error split by field: `paths` maps element paths (`Condition.onsetDateTime`,
 * indexes ignored) to the modal's fields; everything else (network, permission) is general.
 */
export function saveErrors<K extends string>(error: unknown, paths: Record<string, K>): SaveErrors<K> {
  const outcome = normalizeOperationOutcome(error);
  const { byPath, general } = outcomeErrors(outcome, (path) => path in paths);
  const fields: Partial<Record<K, string>> = {};
  for (const [path, text] of byPath) {
    const field = paths[path];
    if (field) fields[field] = fields[field] ? `${fields[field]}; ${text}` : text;
  }
  if (byPath.size === 0 && general.length === 0) general.push(error instanceof Error ? error.message : String(error));
  return { fields, general };
}
