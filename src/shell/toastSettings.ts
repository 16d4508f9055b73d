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
