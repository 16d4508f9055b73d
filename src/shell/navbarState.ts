import { useCallback, useState } from 'react';

/** localStorage key remembering whether the wide layout's side navigation is open (app-spec §2.5). */
export const NAVBAR_OPEN_STORAGE_KEY = 'navbarOpen';

function readNavbarOpen(): boolean {
  try {
    return window.localStorage.getItem(NAVBAR_OPEN_STORAGE_KEY) !== 'false';
  } catch {
    return true;
  }
}

/**
 * The wide layout's column: open by default, the last choice remembered across visits. The narrow
 * layout's drawer (useNavbarDrawer) neither reads nor writes it.
 */
export function useNavbarOpen(): [boolean, (open: boolean) => void] {
  const [open, setOpenState] = useState(readNavbarOpen);
  const setOpen = useCallback((next: boolean) => {
    setOpenState(next);
    try {
      window.localStorage.setItem(NAVBAR_OPEN_STORAGE_KEY, String(next));
    } catch {
      // Without storage the state lasts for this page only.
    }
  }, []);
  return [open, setOpen];
}
