import { useCallback, useEffect, useRef, useState } from 'react';
import type { QuestionnaireResponse } from '@medplum/fhirtypes';
import { useFhirClient } from '../../src/resources/useFhirClient';
import { serverVersionOf } from './answerBackupRules';
import { conflictWith, draftWrite, isVersionConflict, storedAfterSave, type DraftConflict } from './draftConflict';
import { DRAFT_SAVE_DELAY_MS } from './draftRules';
import type { AnswerBackupWriter } from './useAnswerBackup';

export type DraftStatus =
  | { state: 'idle' }
  | { state: 'pending' }
  | { state: 'saving' }
  | { state: 'saved'; at: string }
  | { state: 'error'; message: string }
  /** A save was refused: the stored note is not the version this tab knows. Autosave has stopped. */
  | { state: 'conflict'; conflict: DraftConflict };

/**
 * Saves the in-progress response a moment after the last change: created on the first save,
 * updated afterwards. Saves run one at a time; a change during a save is saved right after it.
 * A failed save keeps the answers on the page and is retried with the next change (or `flush`).
 *
 * Every update is conditional (If-Match) on the version this tab last read or wrote, so it never
 * overwrites a save made in another tab or by someone else. When the server refuses (412), this
 * tab stops saving, keeps its answers (on the page and in the browser copy) and reads the latest
 * version: `status` becomes a conflict, `changed` (the clinician chooses: `loadTheirs` or
 * `keepMine`) or `submitted` (the note is final: nothing is written to it; `startNewNote` saves
 * these answers as a new draft when asked).
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
  /** The draft as this tab last read or wrote it: the version every save is conditional on. */
  const saved = useRef<QuestionnaireResponse | undefined>(initial);
  const waiting = useRef<QuestionnaireResponse | undefined>(unsaved);
  /** This tab's newest answers (sent or not), for a conflict's choices. */
  const latestAnswers = useRef<QuestionnaireResponse | undefined>(unsaved ?? initial);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const running = useRef<Promise<void> | undefined>(undefined);
  const stopped = useRef(false);
  /** A conflict is open: nothing is saved until the clinician chooses. */
  const halted = useRef(false);

  const show = useCallback((next: DraftStatus) => {
    if (!stopped.current) setStatus(next);
  }, []);

  /** Reads the stored note (never from the cache): what a refused save is up against. */
  const readLatest = useCallback(async (): Promise<QuestionnaireResponse | undefined> => {
    const id = saved.current?.id;
    if (!id) return undefined;
    try {
      return await client.readResource('QuestionnaireResponse', id, { cache: 'no-cache' });
    } catch {
      // Deleted, or unreadable now: the choice is still offered; "keep mine" then starts a new draft.
      return undefined;
    }
  }, [client]);

  const enterConflict = useCallback(async () => {
    halted.current = true;
    clearTimeout(timer.current);
    const latest = await readLatest();
    show({ state: 'conflict', conflict: conflictWith(latest) });
  }, [readLatest, show]);

  const saveNow = useCallback(async (): Promise<void> => {
    if (running.current) {
      await running.current;
      if (waiting.current && !halted.current) return saveNow();
      return;
    }
    const next = waiting.current;
    if (!next || halted.current) return;
    waiting.current = undefined;
    show({ state: 'saving' });
    const work = (async () => {
      const write = draftWrite(next, saved.current);
      try {
        if (write.kind === 'refuse') throw new DraftVersionUnknown();
        const result =
          write.kind === 'update'
            ? await client.updateResource(write.body, { headers: { 'If-Match': write.ifMatch } })
            : await client.createResource(write.body);
        saved.current = storedAfterSave(result, saved.current);
        // A change typed during the save is still only here: its copy now continues this version.
        if (waiting.current) backup.rebase(serverVersionOf(saved.current));
        else backup.forget();
        show({ state: 'saved', at: saved.current.meta?.lastUpdated ?? new Date().toISOString() });
      } catch (error) {
        // Keep the unsaved version: the next change or flush tries again, or a conflict's choice uses it.
        waiting.current ??= next;
        if (isVersionConflict(error) || error instanceof DraftVersionUnknown) await enterConflict();
        else show({ state: 'error', message: error instanceof Error ? error.message : String(error) });
      }
    })();
    running.current = work;
    await work;
    running.current = undefined;
  }, [client, backup, show, enterConflict]);

  const schedule = useCallback(
    (response: QuestionnaireResponse) => {
      waiting.current = response;
      latestAnswers.current = response;
      backup.keep(response, serverVersionOf(saved.current));
      clearTimeout(timer.current);
      // While a conflict is open the answers are kept (page and browser) but not sent.
      if (halted.current) return;
      setStatus({ state: 'pending' });
      timer.current = setTimeout(() => void saveNow(), DRAFT_SAVE_DELAY_MS);
    },
    [saveNow, backup],
  );

  /** Saves what is waiting now and resolves with the stored draft (submit uses it). */
  const flush = useCallback(async (): Promise<QuestionnaireResponse | undefined> => {
    clearTimeout(timer.current);
    if (running.current) await running.current;
    if (waiting.current && !halted.current) await saveNow();
    return saved.current;
  }, [saveNow]);

  /** After submit: the draft is now the completed response; stop saving and keep no copy. */
  const reset = useCallback(() => {
    clearTimeout(timer.current);
    waiting.current = undefined;
    saved.current = undefined;
    halted.current = false;
    backup.forget();
    setStatus({ state: 'idle' });
  }, [backup]);

  /** A submit refused for the version: read the latest and show the conflict, as a refused save does. */
  const conflictOnSubmit = useCallback(async () => {
    waiting.current ??= latestAnswers.current;
    await enterConflict();
  }, [enterConflict]);

  /**
   * "Keep mine and save": this tab's answers saved on top of the latest version (If-Match of that
   * version, so a save made meanwhile is refused again). A note submitted meanwhile is not touched.
   */
  const keepMine = useCallback(async () => {
    if (running.current) await running.current;
    const latest = await readLatest();
    const conflict = conflictWith(latest);
    if (conflict.kind === 'submitted') {
      show({ state: 'conflict', conflict });
      return;
    }
    saved.current = latest;
    waiting.current = latestAnswers.current;
    halted.current = false;
    await saveNow();
  }, [readLatest, saveNow, show]);

  /**
   * "Load their version": the latest stored draft replaces this tab's answers (resolves with it,
   * for the form to show). A note submitted meanwhile shows as submitted instead.
   */
  const loadTheirs = useCallback(async (): Promise<QuestionnaireResponse | undefined> => {
    if (running.current) await running.current;
    const latest = await readLatest();
    const conflict = conflictWith(latest);
    if (conflict.kind === 'submitted' || !latest) {
      show({ state: 'conflict', conflict });
      return undefined;
    }
    saved.current = latest;
    waiting.current = undefined;
    latestAnswers.current = latest;
    halted.current = false;
    backup.forget();
    show({ state: 'saved', at: latest.meta?.lastUpdated ?? '' });
    return latest;
  }, [readLatest, backup, show]);

  /** After the note was submitted elsewhere: these answers become a new draft (asked for, never automatic). */
  const startNewNote = useCallback(async () => {
    if (running.current) await running.current;
    saved.current = undefined;
    waiting.current = latestAnswers.current;
    halted.current = false;
    await saveNow();
  }, [saveNow]);

  /** Is a conflict open (nothing is saved until the clinician chooses)? */
  const isHalted = useCallback(() => halted.current, []);

  useEffect(() => {
    stopped.current = false;
    // A version restored from the browser: to the server now, not after the next change.
    if (waiting.current && !running.current) void saveNow();
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (waiting.current) event.preventDefault();
    };
    window.addEventListener('beforeunload', beforeUnload);
    return () => {
      // Leaving the page: save what is waiting at once rather than dropping it (not while a conflict is open).
      window.removeEventListener('beforeunload', beforeUnload);
      clearTimeout(timer.current);
      if (waiting.current && !halted.current) void saveNow();
      stopped.current = true;
    };
  }, [saveNow]);

  return {
    status,
    schedule,
    flush,
    reset,
    saved,
    answers: latestAnswers,
    isHalted,
    conflictOnSubmit,
    keepMine,
    loadTheirs,
    startNewNote,
  };
}

/** The draft's stored version is not known: an update could not be made conditional. */
class DraftVersionUnknown extends Error {
  constructor() {
    super('The version of the saved draft is not known.');
  }
}
