import { createContext, useCallback, useContext, useEffect, useMemo, useRef, type RefObject } from 'react';
import { toastBottom } from './toastPlacement';
import { TOAST_BOTTOM_CLEARANCE, TOAST_BOTTOM_VARIABLE, TOAST_MAX_HEIGHT, TOAST_WIDTH } from './toastSettings';

export interface KeepClear {
  /** Keeps the toasts off `element` while it is mounted; returns the undo. */
  register(element: HTMLElement): () => void;
  /** Measures again (a toast is about to show). */
  place(): void;
}

export const KeepClearContext = createContext<KeepClear | undefined>(undefined);

/**
 * The elements the toasts stay clear of, measured when they change size, on scroll and resize, and
 * when a toast shows; the stack's distance from the bottom goes into TOAST_BOTTOM_VARIABLE (the
 * container's `bottom` reads it), so the toasts stay bottom-right and move up only when needed.
 */
export function useKeepClear(): KeepClear {
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
