/**
 * Display states of a notification (toast), spec §4, and its limits, spec §9. A toast enters,
 * stays entered, exits and is then gone; the screens animate between these states.
 */
export const NOTIFICATION_STATES = ['entering', 'entered', 'exiting', 'exited'] as const;
export type NotificationState = (typeof NOTIFICATION_STATES)[number];

/** At most this many notifications are shown at once (spec §9). */
export const NOTIFICATION_LIMIT = 5;
/** Where notifications appear (spec §9). */
export const NOTIFICATION_POSITION = { vertical: 'bottom', horizontal: 'right' } as const;
/** How long a notification stays before it exits by itself (ARCHITECTURE.md, toasts). */
export const NOTIFICATION_AUTO_HIDE_MS = 4000;

/** The state after the current animation ends; 'exited' is final. */
export function nextNotificationState(state: NotificationState): NotificationState {
  const index = NOTIFICATION_STATES.indexOf(state);
  return NOTIFICATION_STATES[Math.min(index + 1, NOTIFICATION_STATES.length - 1)];
}

/** Dismissing (by the user or by time) starts the exit, even halfway through entering; an exit is never undone. */
export function dismissNotificationState(state: NotificationState): NotificationState {
  return state === 'entering' || state === 'entered' ? 'exiting' : state;
}

/** Whether the notification still takes up a place on screen (and counts against the limit). */
export function isNotificationVisible(state: NotificationState): boolean {
  return state !== 'exited';
}
