import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  type ReactNode,
  type RefObject,
} from 'react';
import { GlobalStyles, IconButton } from '@mui/material';
import { styled } from '@mui/material/styles';
import CloseIcon from '@mui/icons-material/Close';
import { closeSnackbar, MaterialDesignContent, SnackbarProvider, useSnackbar, type SnackbarKey } from 'notistack';
import { isNetworkFailure, NO_ANSWER_TEXT } from './networkFailure';
import { normalizeErrorString } from '../../data-provider/outcomes';
import { toastBottom } from './toastPlacement';

/** Toast settings of app-spec §9: bottom-right, 4 s, 250 ms transitions, 440 wide, 200 high at most, 5 at once. */
export const TOAST_AUTO_HIDE_MS = 4000;
export const TOAST_TRANSITION_MS = 250;
export const TOAST_WIDTH = 440;
export const TOAST_MAX_HEIGHT = 200;
export const TOAST_LIMIT = 5;
/**
 * Toasts stand this far above the window's bottom edge: clear of the forms' sticky action bar
 * (Create/Update, ~52 px), wherever the form sits — in the chart the form's buttons are under the
 * bottom-right corner, and a persistent error toast must never hide the action that retries.
 */
export const TOAST_BOTTOM_CLEARANCE = 64;
/** The stack's distance above the bottom edge now: the clearance, or more above a kept-clear element. */
export const TOAST_BOTTOM_VARIABLE = '--hearth-toast-bottom';

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

interface KeepClear {
  /** Keeps the toasts off `element` while it is mounted; returns the undo. */
  register(element: HTMLElement): () => void;
  /** Measures again (a toast is about to show). */
  place(): void;
}

const KeepClearContext = createContext<KeepClear | undefined>(undefined);

/**
 * The elements the toasts stay clear of, measured when they change size, on scroll and resize, and
 * when a toast shows; the stack's distance from the bottom goes into TOAST_BOTTOM_VARIABLE (the
 * container's `bottom` reads it), so the toasts stay bottom-right and move up only when needed.
 */
function useKeepClear(): KeepClear {
  const elements = useRef(new Set<HTMLElement>());
  const observer = useRef<ResizeObserver | undefined>(undefined);
  const frame = useRef<number | undefined>(undefined);

  const place = useCallback(() => {
    const root = document.documentElement;
    if (!elements.current.size) {
      root.style.removeProperty(TOAST_BOTTOM_VARIABLE);
      return;
    }
    const bottom = toastBottom({
      viewport: { width: window.innerWidth, height: window.innerHeight },
      base: TOAST_BOTTOM_CLEARANCE,
      toastWidth: TOAST_WIDTH,
      toastHeight: TOAST_MAX_HEIGHT,
      keepClear: [...elements.current].map((element) => element.getBoundingClientRect()),
    });
    root.style.setProperty(TOAST_BOTTOM_VARIABLE, `${bottom}px`);
  }, []);

  useEffect(() => {
    // One measurement per frame however fast the page scrolls.
    const schedule = () => {
      if (!elements.current.size || frame.current !== undefined) return;
      frame.current = requestAnimationFrame(() => {
        frame.current = undefined;
        place();
      });
    };
    // Content loading above a kept-clear element moves it without resizing it: the body grows.
    observer.current = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(schedule);
    observer.current?.observe(document.body);
    // Capture: the scrolling element may be any container, not only the window.
    window.addEventListener('scroll', schedule, { capture: true, passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      window.removeEventListener('scroll', schedule, { capture: true });
      window.removeEventListener('resize', schedule);
      observer.current?.disconnect();
      if (frame.current !== undefined) cancelAnimationFrame(frame.current);
      document.documentElement.style.removeProperty(TOAST_BOTTOM_VARIABLE);
    };
  }, [place]);

  const register = useCallback(
    (element: HTMLElement) => {
      elements.current.add(element);
      observer.current?.observe(element);
      place();
      return () => {
        elements.current.delete(element);
        observer.current?.unobserve(element);
        place();
      };
    },
    [place],
  );

  return useMemo(() => ({ register, place }), [register, place]);
}

/**
 * Keeps the toasts off the element in `ref` while it is on screen (the chat's message box and
 * Send): the stack then stands just above it instead of over it. Outside a ToastProvider it does nothing.
 */
export function useToastKeepClear(ref: RefObject<HTMLElement | null>): void {
  const keepClear = useContext(KeepClearContext);
  useEffect(() => {
    const element = ref.current;
    if (!keepClear || !element) return undefined;
    return keepClear.register(element);
  }, [keepClear, ref]);
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
