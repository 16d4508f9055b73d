import { useCallback, useState } from 'react';

export interface ModalDraft<T> {
  /** The key of the open modal ('new' or the id of the edited resource), undefined when closed. */
  openKey: string | undefined;
  draft: T | undefined;
  /** Opens the modal for `key`, with the draft left there earlier or a fresh one. */
  open(key: string, fresh: () => T): void;
  update(patch: Partial<T>): void;
  /** Escape, a click outside: the modal closes and its draft waits for the next opening. */
  close(): void;
  /** Cancel or a successful save: the draft is gone. */
  discard(): void;
}

/**
 * Drafts of a section's modals, one per target, so closing a modal by Escape or by a click outside
 * never loses what was typed; only Cancel and a successful save forget it.
 */
export function useModalDraft<T>(): ModalDraft<T> {
  const [drafts, setDrafts] = useState<Record<string, T>>({});
  const [openKey, setOpenKey] = useState<string | undefined>();

  const open = useCallback((key: string, fresh: () => T) => {
    setDrafts((current) => (key in current ? current : { ...current, [key]: fresh() }));
    setOpenKey(key);
  }, []);
  const update = useCallback(
    (patch: Partial<T>) => {
      if (openKey === undefined) return;
      setDrafts((current) => ({ ...current, [openKey]: { ...(current[openKey] as T), ...patch } }));
    },
    [openKey],
  );
  const close = useCallback(() => setOpenKey(undefined), []);
  const discard = useCallback(() => {
    if (openKey !== undefined) {
      setDrafts((current) => {
        const rest = { ...current };
        delete rest[openKey];
        return rest;
      });
    }
    setOpenKey(undefined);
  }, [openKey]);

  return { openKey, draft: openKey === undefined ? undefined : drafts[openKey], open, update, close, discard };
}
