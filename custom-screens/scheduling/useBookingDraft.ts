import { useCallback, useState } from 'react';
import { EMPTY_BOOKING_DRAFT, type BookingDraft } from './bookingDraft';

function load(key: string | undefined, fallback: BookingDraft): BookingDraft {
  try {
    const saved = key ? window.sessionStorage.getItem(key) : null;
    return saved ? { ...EMPTY_BOOKING_DRAFT, ...(JSON.parse(saved) as Partial<BookingDraft>) } : fallback;
  } catch {
    return fallback;
  }
}

function store(key: string | undefined, draft: BookingDraft | undefined): void {
  if (!key) return;
  try {
    if (draft) window.sessionStorage.setItem(key, JSON.stringify(draft));
    else window.sessionStorage.removeItem(key);
  } catch {
    // Without session storage the draft lives only in the page.
  }
}

/**
 * The draft, kept under `key` on every change so that a reload or a detour loses nothing; `initial`
 * is used when nothing is stored. `forget` ends it (after the save).
 */
export function useBookingDraft(key: string | undefined, initial: () => BookingDraft) {
  const [draft, setDraft] = useState<BookingDraft>(() => load(key, initial()));
  const update = useCallback(
    (change: (current: BookingDraft) => BookingDraft) =>
      setDraft((current) => {
        const next = change(current);
        store(key, next);
        return next;
      }),
    [key],
  );
  const forget = useCallback(() => store(key, undefined), [key]);
  return { draft, update, forget };
}
