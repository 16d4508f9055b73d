import { useEffect, useRef, useState, type RefObject } from 'react';
import { useLocation } from 'react-router-dom';

export interface NavbarDrawer {
  open: boolean;
  setOpen: (open: boolean) => void;
  /** The header button that opens the drawer; focus goes back to it when the drawer closes. */
  menuButtonRef: RefObject<HTMLButtonElement | null>;
}

/**
 * The narrow layout's navigation drawer. It is closed on load and never remembered: an overlay
 * left open would hide the page a phone user just asked for. It is open only at the location where
 * it was opened, so any navigation (a chosen link, the global search, Back) closes it in the same
 * render, with no frame of the drawer over the new page.
 */
export function useNavbarDrawer(narrow: boolean): NavbarDrawer {
  const location = useLocation();
  const [openAt, setOpenAt] = useState<string | null>(null);
  // Forget a stale opening (another location, or the window grew wide), so that coming back to
  // that history entry or to a narrow window does not open the drawer again by itself.
  if (openAt !== null && (openAt !== location.key || !narrow)) setOpenAt(null);
  const open = narrow && openAt === location.key;

  // Safari does not focus a button on click, so MUI's "give focus back to what had it" would give
  // it to the page's body; the menu button is where a keyboard or screen-reader user expects it.
  const menuButtonRef = useRef<HTMLButtonElement | null>(null);
  const wasOpen = useRef(open);
  useEffect(() => {
    if (wasOpen.current && !open) menuButtonRef.current?.focus();
    wasOpen.current = open;
  }, [open]);

  return { open, setOpen: (next) => setOpenAt(next ? location.key : null), menuButtonRef };
}
