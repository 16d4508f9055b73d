import { Alert, AlertTitle, Box, LinearProgress, Snackbar } from '@mui/material';
import { uploadNoticeText, type UploadState } from './uploadState';

// Teal for a finished upload (app-spec §4), dark enough for white text (WCAG AA).
const TEAL = '#00695c';

/** The upload notification: initializing, uploading with its percentage, complete (teal) or "Upload error" (red). */
export function UploadNotice({ state, onClose }: { state: UploadState; onClose: () => void }) {
  const open = state.phase !== 'idle';
  const error = state.phase === 'error';
  const complete = state.phase === 'complete';
  return (
    <Snackbar open={open} anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }} sx={{ bottom: { xs: 96 } }}>
      <Alert
        data-testid="upload-notice"
        data-phase={state.phase}
        severity={error ? 'error' : complete ? 'success' : 'info'}
        variant="filled"
        onClose={onClose}
        sx={{
          width: 440,
          maxWidth: 'calc(100vw - 32px)',
          ...(complete ? { bgcolor: TEAL, color: '#fff' } : {}),
          ...(error ? { bgcolor: '#c62828', color: '#fff' } : {}),
          ...(!error && !complete ? { bgcolor: '#1565c0', color: '#fff' } : {}),
        }}
      >
        {error && <AlertTitle>Upload error</AlertTitle>}
        {error && state.phase === 'error' ? state.message : uploadNoticeText(state)}
        {state.phase === 'uploading' && (
          <Box sx={{ mt: 1 }}>
            <LinearProgress
              variant="determinate"
              value={state.percent}
              color="inherit"
              aria-label={`Upload progress ${state.percent}%`}
            />
          </Box>
        )}
        {state.phase === 'initializing' && (
          <Box sx={{ mt: 1 }}>
            <LinearProgress color="inherit" aria-label="Initializing upload" />
          </Box>
        )}
      </Alert>
    </Snackbar>
  );
}
