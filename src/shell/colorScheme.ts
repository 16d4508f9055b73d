import { useCallback, useSyncExternalStore } from 'react';

/** The user's choice; 'auto' follows the operating system's setting. */
export type ColorSchemeChoice = 'light' | 'dark' | 'auto';

export const COLOR_SCHEME_STORAGE_KEY = 'colorScheme';
const CHANGE_EVENT = 'hearth-color-scheme';

export function parseColorSchemeChoice(value: string | null | undefined): ColorSchemeChoice {
  return value === 'light' || value === 'dark' ? value : 'auto';
}

/** The mode to paint with: the choice, or the system preference when the choice is 'auto'. */
export function effectiveColorScheme(choice: ColorSchemeChoice, systemPrefersDark: boolean): 'light' | 'dark' {
  if (choice === 'auto') return systemPrefersDark ? 'dark' : 'light';
  return choice;
}

function readChoice(): ColorSchemeChoice {
  try {
    return parseColorSchemeChoice(window.localStorage.getItem(COLOR_SCHEME_STORAGE_KEY));
  } catch {
    return 'auto';
  }
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener(CHANGE_EVENT, onChange);
  window.addEventListener('storage', onChange);
  return () => {
    window.removeEventListener(CHANGE_EVENT, onChange);
    window.removeEventListener('storage', onChange);
  };
}

/** The persisted colour-scheme choice (localStorage `colorScheme`), shared by every component using it. */
export function useColorSchemeChoice(): [ColorSchemeChoice, (choice: ColorSchemeChoice) => void] {
  const choice = useSyncExternalStore(subscribe, readChoice, () => 'auto' as const);
  const setChoice = useCallback((next: ColorSchemeChoice) => {
    try {
      window.localStorage.setItem(COLOR_SCHEME_STORAGE_KEY, next);
    } catch {
      // Private browsing without storage: the choice lasts for this page only.
    }
    window.dispatchEvent(new Event(CHANGE_EVENT));
  }, []);
  return [choice, setChoice];
}
