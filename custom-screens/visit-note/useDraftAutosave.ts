import { useCallback, useEffect, useRef, useState } from 'react';
import type { QuestionnaireResponse } from '@medplum/fhirtypes';
import { useFhirClient } from '../../src/resources/useFhirClient';
import { serverVersionOf } from './answerBackupRules';
import { DRAFT_SAVE_DELAY_MS } from './draftRules';
import type { AnswerBackupWriter } from './useAnswerBackup';

export type DraftStatus =
  | { state: 'idle' }
  | { state: 'pending' }
  | { state: 'saving' }
  | { state: 'saved'; at: string }
  | { state: 'error'; message: string };

/**
 * Saves the in-progress response a moment after the last change: created on the first save,
 * updated afterwards. Saves run one at a time; a change during a save is saved right after it.
 * A failed save keeps the answers on the page and is retried with the next change (or `flush`).
 *
 * Every change is also kept in the browser (`backup`) until the server has stored that version,
 * so a reload while the server cannot be reached loses nothing: the copy exists exactly while
 * there are answers the server does not have. `unsaved` is such a version found when the page
 * opened (restored from the browser): it is saved at once.
 */
export function useDraftAutosave(
  initial: QuestionnaireResponse | undefined,
  backup: AnswerBackupWriter,
  unsaved?: QuestionnaireResponse,
) {
  const client = useFhirClient();
  const [status, setStatus] = useState<DraftStatus>(() => {
    if (unsaved) return { state: 'pending' };
    return initial ? { state: 'saved', at: initial.meta?.lastUpdated ?? '' } : { state: 'idle' };
  });
  const saved = useRef<QuestionnaireResponse | undefined>(initial);
  const waiting = useRef<QuestionnaireResponse | undefined>(unsaved);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const running = useRef<Promise<void> | undefined>(undefined);
  const stopped = useRef(false);

  const saveNow = useCallback(async (): Promise<void> => {
    if (running.current) {
      await running.current;
      if (waiting.current) return saveNow();
      return;
    }
    const next = waiting.current;
    if (!next) return;
    waiting.current = undefined;
    setStatus({ state: 'saving' });
    const work = (async () => {
      try {
        const body: QuestionnaireResponse = saved.current?.id
          ? { ...next, id: saved.current.id, meta: undefined }
          : { ...next, id: undefined, meta: undefined };
        const result = body.id ? await client.updateResource(body) : await client.createResource(body);
        saved.current = result;
        // A change typed during the save is still only here: its copy now continues this version.
        if (waiting.current) backup.rebase(serverVersionOf(result));
        else backup.forget();
        if (!stopped.current) setStatus({ state: 'saved', at: result.meta?.lastUpdated ?? new Date().toISOString() });
      } catch (error) {
        // Keep the unsaved version so the next change or flush tries again.
        waiting.current ??= next;
        if (!stopped.current)
          setStatus({ state: 'error', message: error instanceof Error ? error.message : String(error) });
      }
    })();
    running.current = work;
    await work;
    running.current = undefined;
  }, [client, backup]);

  const schedule = useCallback(
    (response: QuestionnaireResponse) => {
      waiting.current = response;
      backup.keep(response, serverVersionOf(saved.current));
      setStatus({ state: 'pending' });
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void saveNow(), DRAFT_SAVE_DELAY_MS);
    },
    [saveNow, backup],
  );

  /** Saves what is waiting now and resolves with the stored draft (submit uses it). */
  const flush = useCallback(async (): Promise<QuestionnaireResponse | undefined> => {
    clearTimeout(timer.current);
    if (running.current) await running.current;
    if (waiting.current) await saveNow();
    return saved.current;
  }, [saveNow]);

  /** After submit: the draft is now the completed response; stop saving and keep no copy. */
  const reset = useCallback(() => {
    clearTimeout(timer.current);
    waiting.current = undefined;
    saved.current = undefined;
    backup.forget();
    setStatus({ state: 'idle' });
  }, [backup]);

  useEffect(() => {
    stopped.current = false;
    // A version restored from the browser: to the server now, not after the next change.
    if (waiting.current && !running.current) void saveNow();
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (waiting.current) event.preventDefault();
    };
    window.addEventListener('beforeunload', beforeUnload);
    return () => {
      // Leaving the page: save what is waiting at once rather than dropping it.
      window.removeEventListener('beforeunload', beforeUnload);
      clearTimeout(timer.current);
      if (waiting.current) void saveNow();
      stopped.current = true;
    };
  }, [saveNow]);

  return { status, schedule, flush, reset, saved };
}
