import { useCallback, useId, useMemo, useRef } from 'react';
import { useToast } from '../shell/toasts';

export interface SaveErrorToasts {
  /** A failure of one attempt: red, kept until closed (app-spec §8), its line breaks kept. */
  show(message: string): void;
  /** Closes what earlier attempts of this form raised: once a save went through they are stale. */
  closeAll(): void;
}

/** The error toasts of one form's save attempts, so a later success can take them down. */
export function useSaveErrorToasts(): SaveErrorToasts {
  const toast = useToast();
  const formId = useId();
  const open = useRef<string[]>([]);
  const attempts = useRef(0);
  const show = useCallback(
    (message: string) => {
      // One key per attempt: a shared key would make notistack drop a later, different failure.
      const key = `save-error${formId}${++attempts.current}`;
      open.current.push(key);
      toast.error(message, { persist: true, key });
    },
    [toast, formId],
  );
  const closeAll = useCallback(() => {
    for (const key of open.current) toast.close(key);
    open.current = [];
  }, [toast]);
  return useMemo(() => ({ show, closeAll }), [show, closeAll]);
}
