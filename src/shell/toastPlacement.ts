/**
 * Where the toast stack stands (how far above the window's bottom edge), so that it never covers a
 * control that must stay usable while a toast is up — the chat's message box and Send (app-spec §9
 * puts toasts bottom-right; the chat's composer is there too). Pure: the provider measures, this decides.
 */

/** An element's box as getBoundingClientRect gives it (window coordinates, px). */
export interface ScreenBox {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

export interface ToastPlacementInput {
  viewport: { width: number; height: number };
  /** The usual distance above the bottom edge (TOAST_BOTTOM_CLEARANCE). */
  base: number;
  /** The toasts' width (TOAST_WIDTH). */
  toastWidth: number;
  /** What the toasts must not cover. */
  keepClear: readonly ScreenBox[];
  /** Room a toast needs (TOAST_MAX_HEIGHT): this much free below an element, and toasts stay down. */
  toastHeight: number;
}

/** notistack's phone layout: below 600 px a toast spans the window, 16 px from each side. */
const PHONE_WIDTH = 600;
const PHONE_MARGIN = 16;
/** Beside the window's right edge on wider screens (notistack's default view indent). */
const SIDE_MARGIN = 20;
/** Air between the lifted toasts and what they stay clear of. */
export const KEEP_CLEAR_GAP = 8;
/** Lifted toasts need this much room under the header (60 px) for one toast; with less they stay down. */
const LIFT_MIN_TOP = 60 + 88;

/** The horizontal band the toast stack occupies. */
export function toastColumn(viewport: { width: number }, toastWidth: number): { left: number; right: number } {
  if (viewport.width < PHONE_WIDTH) return { left: PHONE_MARGIN, right: viewport.width - PHONE_MARGIN };
  const width = Math.min(toastWidth, viewport.width - 2 * SIDE_MARGIN);
  return { left: viewport.width - SIDE_MARGIN - width, right: viewport.width - SIDE_MARGIN };
}

/**
 * The stack's distance above the bottom edge: the base, or — when something to keep clear is on
 * screen under the toasts' column, in the toasts' way — just above its top. It is in the way when
 * it reaches above the base and leaves less than a toast's room below it. The toasts stay down
 * when lifting would push them up under the header: an element that high leaves the usual place free.
 */
export function toastBottom({ viewport, base, toastWidth, toastHeight, keepClear }: ToastPlacementInput): number {
  const column = toastColumn(viewport, toastWidth);
  let bottom = base;
  for (const box of keepClear) {
    const onScreen = box.bottom > 0 && box.top < viewport.height && box.bottom > box.top;
    const underColumn = box.right > column.left && box.left < column.right;
    const inTheWay = box.top < viewport.height - base && viewport.height - box.bottom < base + toastHeight;
    if (!onScreen || !underColumn || !inTheWay) continue;
    const lifted = Math.ceil(viewport.height - box.top + KEEP_CLEAR_GAP);
    if (viewport.height - lifted < LIFT_MIN_TOP) continue;
    bottom = Math.max(bottom, lifted);
  }
  return bottom;
}
