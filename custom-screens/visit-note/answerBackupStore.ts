import { parseAnswerBackup, type AnswerBackup, type ServerVersion } from './answerBackupRules';

/**
 * The browser's session storage: per tab, gone when the tab closes, so patients' answers do not
 * outlive the work they belong to. Undefined where there is none (blocked, or not a browser) —
 * then the answers live only in the page, as before.
 */
export function sessionStore(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.sessionStorage;
  } catch {
    return undefined;
  }
}

export function readAnswerBackup(key: string, storage = sessionStore()): AnswerBackup | undefined {
  try {
    return parseAnswerBackup(storage?.getItem(key));
  } catch {
    return undefined;
  }
}

/**
 * Keeps `backup` under `key`. When it cannot be written (storage full, say, with a large inline
 * attachment), an older copy is removed rather than left to be restored later as if it were the
 * latest.
 */
export function writeAnswerBackup(key: string, backup: AnswerBackup, storage = sessionStore()): void {
  try {
    storage?.setItem(key, JSON.stringify(backup));
  } catch {
    removeAnswerBackup(key, storage);
  }
}

export function removeAnswerBackup(key: string, storage = sessionStore()): void {
  try {
    storage?.removeItem(key);
  } catch {
    // Nothing more can be done; an unreadable storage restores nothing either.
  }
}

/** The copy under `key` now continues `basis` (a save stored an earlier version meanwhile). */
export function rebaseAnswerBackup(key: string, basis: ServerVersion | undefined, storage = sessionStore()): void {
  const backup = readAnswerBackup(key, storage);
  if (backup) writeAnswerBackup(key, { ...backup, basis }, storage);
}

/** Removes every key `matches` accepts (sign-out: all of one account's drafts). */
export function removeMatchingKeys(matches: (key: string) => boolean, storage = sessionStore()): void {
  try {
    if (!storage) return;
    const keys: string[] = [];
    for (let index = 0; index < storage.length; index++) {
      const key = storage.key(index);
      if (key !== null && matches(key)) keys.push(key);
    }
    // Collected first: removing while walking the indexes would skip keys.
    for (const key of keys) storage.removeItem(key);
  } catch {
    // Storage unavailable: nothing was kept there either.
  }
}
