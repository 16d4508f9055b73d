import { useCallback, useState } from 'react';

/** localStorage key remembering whether the side navigation is open (app-spec §2.5). */
export const NAVBAR_OPEN_STORAGE_KEY = 'navbarOpen';

function readNavbarOpen(): boolean {
  try {
    return window.localStorage.getItem(NAVBAR_OPEN_STORAGE_KEY) !== 'false';
  } catch {
    return true;
  }
}

/** Open by default; the last choice is remembered across visits. */
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
