import { useMemo, useState } from 'react';
import type { QuestionnaireResponse } from '@medplum/fhirtypes';
import type { AnswerBackup, ServerVersion } from './answerBackupRules';
import { readAnswerBackup, rebaseAnswerBackup, removeAnswerBackup, writeAnswerBackup } from './answerBackupStore';

/** Writes and removes the browser copy of one form's answers. */
export interface AnswerBackupWriter {
  /** Keeps these answers (typed on top of `basis`, the server draft, when there is one). */
  keep(response: QuestionnaireResponse, basis?: ServerVersion): void;
  /** The copy now continues `basis`: a save stored an earlier version while these were typed. */
  rebase(basis: ServerVersion | undefined): void;
  /** The server has the answers (or they were submitted or discarded): no copy any more. */
  forget(): void;
}

export interface AnswerBackupHandle extends AnswerBackupWriter {
  /** The copy that was there when the form opened (read once: later writes are this page's own). */
  found: AnswerBackup | undefined;
}

const noBackup: AnswerBackupWriter = { keep: () => undefined, rebase: () => undefined, forget: () => undefined };

/**
 * The browser copy under `key` (see answerBackupRules.ts). Without a key (nobody signed in with a
 * profile) nothing is kept. A key that changes (another patient or task in the same component)
 * reads that key's copy, never carries one over.
 */
export function useAnswerBackup(key: string | undefined): AnswerBackupHandle {
  const [opened, setOpened] = useState(() => ({ key, found: key ? readAnswerBackup(key) : undefined }));
  let found = opened.found;
  if (opened.key !== key) {
    found = key ? readAnswerBackup(key) : undefined;
    setOpened({ key, found });
  }
  const writer = useMemo<AnswerBackupWriter>(
    () =>
      key
        ? {
            keep: (response, basis) =>
              writeAnswerBackup(key, { changedAt: new Date().toISOString(), ...(basis ? { basis } : {}), response }),
            rebase: (basis) => rebaseAnswerBackup(key, basis),
            forget: () => removeAnswerBackup(key),
          }
        : noBackup,
    [key],
  );
  return useMemo(() => ({ ...writer, found }), [writer, found]);
}
