/** Where an upload is (app-spec §4 'Upload notification'). */
export type UploadState =
  | { phase: 'idle' }
  | { phase: 'initializing'; filename: string }
  | { phase: 'uploading'; filename: string; percent: number }
  | { phase: 'complete'; filename: string }
  | { phase: 'error'; filename: string; message: string };

/** The upload notice closes by itself this long after it completes or fails (app-spec §9). */
export const UPLOAD_NOTICE_CLOSE_MS = 2000;

/** Percentage of an upload, 0–100, from the progress event (unknown totals stay at 0). */
export function uploadPercent(loaded: number, total: number): number {
  if (!Number.isFinite(loaded) || !Number.isFinite(total) || total <= 0) return 0;
  return Math.max(0, Math.min(100, Math.round((loaded / total) * 100)));
}

/** The notice's words for a state. */
export function uploadNoticeText(state: UploadState): string {
  switch (state.phase) {
    case 'idle':
      return '';
    case 'initializing':
      return `Initializing upload of ${state.filename}...`;
    case 'uploading':
      return `Uploading ${state.filename}: ${state.percent}%`;
    case 'complete':
      return `Upload complete: ${state.filename}`;
    case 'error':
      return `Upload error: ${state.message}`;
  }
}
