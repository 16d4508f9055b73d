import { useContext, useMemo, type ReactNode } from 'react';
import { GlobalStyles, IconButton } from '@mui/material';
import { styled } from '@mui/material/styles';
import CloseIcon from '@mui/icons-material/Close';
import { closeSnackbar, MaterialDesignContent, SnackbarProvider, useSnackbar, type SnackbarKey } from 'notistack';
import { isNetworkFailure, NO_ANSWER_TEXT } from './networkFailure';
import { normalizeErrorString } from '../../data-provider/outcomes';
import { KeepClearContext, useKeepClear } from './toastKeepClear';
import {
  TOAST_AUTO_HIDE_MS,
  TOAST_BOTTOM_CLEARANCE,
  TOAST_BOTTOM_VARIABLE,
  TOAST_LIMIT,
  TOAST_MAX_HEIGHT,
  TOAST_TRANSITION_MS,
  TOAST_WIDTH,
} from './toastSettings';

export * from './toastSettings';
export { useToastKeepClear } from './toastKeepClear';

// Colours darker than notistack's so white text keeps WCAG AA contrast; line breaks of server errors are kept.
const ToastContent = styled(MaterialDesignContent)(() => ({
  width: TOAST_WIDTH,
  maxWidth: 'calc(100vw - 32px)',
  maxHeight: TOAST_MAX_HEIGHT,
  overflowY: 'auto',
  whiteSpace: 'pre-line',
  // Server messages can hold long unbroken tokens (URLs, ids): wrap them instead of widening the toast.
  overflowWrap: 'anywhere',
  '&.notistack-MuiContent-success': { backgroundColor: '#2e7d32', color: '#fff' },
  '&.notistack-MuiContent-error': { backgroundColor: '#c62828', color: '#fff' },
  '&.notistack-MuiContent-info': { backgroundColor: '#1565c0', color: '#fff' },
  '&.notistack-MuiContent-warning': { backgroundColor: '#8a4b00', color: '#fff' },
  '&.notistack-MuiContent-default': { backgroundColor: '#323232', color: '#fff' },
}));

const components = {
  success: ToastContent,
  error: ToastContent,
  info: ToastContent,
  warning: ToastContent,
  default: ToastContent,
};

function CloseToastButton({ toastKey }: { toastKey: SnackbarKey }) {
  return (
    <IconButton size="small" color="inherit" aria-label="Close notification" onClick={() => closeSnackbar(toastKey)}>
      <CloseIcon fontSize="small" />
    </IconButton>
  );
}

/** The one toast area of the app (notistack), configured as app-spec §9 says. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const keepClear = useKeepClear();
  return (
    <KeepClearContext.Provider value={keepClear}>
      <GlobalStyles
        styles={{
          '.notistack-SnackbarContainer': {
            bottom: `var(${TOAST_BOTTOM_VARIABLE}, ${TOAST_BOTTOM_CLEARANCE}px) !important`,
          },
        }}
      />
      <SnackbarProvider
        maxSnack={TOAST_LIMIT}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        autoHideDuration={TOAST_AUTO_HIDE_MS}
        transitionDuration={{ enter: TOAST_TRANSITION_MS, exit: TOAST_TRANSITION_MS }}
        Components={components}
        action={(key) => <CloseToastButton toastKey={key} />}
      >
        {children}
      </SnackbarProvider>
    </KeepClearContext.Provider>
  );
}

export interface ToastOptions {
  /** Stays until closed (create and edit failures, the offline notice). */
  persist?: boolean;
  /** A toast with the same key replaces nothing and is not shown twice. */
  key?: string;
}

export interface Toasts {
  success(message: ReactNode, options?: ToastOptions): void;
  info(message: ReactNode, options?: ToastOptions): void;
  /** An error toast: a string, an Error or an OperationOutcome-carrying error, shown with its server text. */
  error(error: unknown, options?: ToastOptions): void;
  close(key: string): void;
}

/** Shows toasts: `const toast = useToast(); toast.success('Success'); toast.error(err, { persist: true })`. */
export function useToast(): Toasts {
  const { enqueueSnackbar, closeSnackbar: close } = useSnackbar();
  const keepClear = useContext(KeepClearContext);
  return useMemo(() => {
    const show = (variant: 'success' | 'info' | 'error', message: ReactNode, options: ToastOptions = {}) => {
      // Where the stack stands is decided as the toast comes: the page may have moved since.
      keepClear?.place();
      enqueueSnackbar(message, {
        variant,
        persist: options.persist,
        key: options.key,
        preventDuplicate: options.key !== undefined,
      });
    };
    return {
      success: (message, options) => show('success', message, options),
      info: (message, options) => show('info', message, options),
      error: (error, options) =>
        show(
          'error',
          typeof error === 'string' ? error : isNetworkFailure(error) ? NO_ANSWER_TEXT : normalizeErrorString(error),
          options,
        ),
      close: (key) => close(key),
    };
  }, [enqueueSnackbar, close, keepClear]);
}
