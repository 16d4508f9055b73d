import { useOfflineToast } from './useOfflineToast';

/** Mounted once at the top of the app, so the offline toast also shows on the sign-in screens. */
export function OfflineNotice() {
  useOfflineToast();
  return null;
}
