/**
 * Names of the profiles signed in on this device, remembered when each login's session loads, so
 * the account switcher can name the other logins without using their tokens.
 */
export const PROFILE_NAMES_STORAGE_KEY = 'hearth.profileNames';

function read(): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(PROFILE_NAMES_STORAGE_KEY) ?? '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

export function rememberProfileName(reference: string, name: string): void {
  const names = read();
  if (names[reference] === name) return;
  try {
    window.localStorage.setItem(PROFILE_NAMES_STORAGE_KEY, JSON.stringify({ ...names, [reference]: name }));
  } catch {
    // Without storage the switcher shows references instead of names.
  }
}

export function knownProfileName(reference: string | undefined): string | undefined {
  return reference ? read()[reference] : undefined;
}
