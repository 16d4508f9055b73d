import { useCallback, useState } from 'react';

/** Chat drafts are kept under this prefix, then `{profile}|Patient/{id}` (see ChatPanel). */
export const CHAT_DRAFT_KEY_PREFIX = 'hearth.chatDraft.';

function read(key: string | undefined): string {
  if (!key) return '';
  try {
    return window.sessionStorage.getItem(CHAT_DRAFT_KEY_PREFIX + key) ?? '';
  } catch {
    return '';
  }
}

/**
 * The unsent text of one conversation, kept in session storage: a clinician who looks at another
 * tab of the chart mid-message (or reloads) finds the text still in the box. Without a key it
 * lives only in the component.
 */
export function useMessageDraft(key: string | undefined): [string, (text: string) => void] {
  const [draft, setDraft] = useState(() => ({ key, text: read(key) }));
  // The same box may be handed another conversation (the chat page of another patient, without
  // remounting): it shows that conversation's draft, never carries one over.
  let text = draft.text;
  if (draft.key !== key) {
    text = read(key);
    setDraft({ key, text });
  }
  const change = useCallback(
    (next: string) => {
      setDraft({ key, text: next });
      if (!key) return;
      try {
        if (next) window.sessionStorage.setItem(CHAT_DRAFT_KEY_PREFIX + key, next);
        else window.sessionStorage.removeItem(CHAT_DRAFT_KEY_PREFIX + key);
      } catch {
        // Without session storage the draft lives only in the page.
      }
    },
    [key],
  );
  return [text, change];
}
