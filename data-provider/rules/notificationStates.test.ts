import { describe, expect, it } from 'vitest';
import {
  dismissNotificationState,
  isNotificationVisible,
  nextNotificationState,
  NOTIFICATION_AUTO_HIDE_MS,
  NOTIFICATION_LIMIT,
  NOTIFICATION_POSITION,
  NOTIFICATION_STATES,
} from './notificationStates';

describe('notification states', () => {
  it('are entering, entered, exiting, exited in that order', () => {
    expect(NOTIFICATION_STATES).toEqual(['entering', 'entered', 'exiting', 'exited']);
  });
  it('advance one step at a time and stop at exited', () => {
    expect(nextNotificationState('entering')).toBe('entered');
    expect(nextNotificationState('entered')).toBe('exiting');
    expect(nextNotificationState('exiting')).toBe('exited');
    expect(nextNotificationState('exited')).toBe('exited');
  });
  it('exit on dismissal, also while entering, and never come back', () => {
    expect(dismissNotificationState('entering')).toBe('exiting');
    expect(dismissNotificationState('entered')).toBe('exiting');
    expect(dismissNotificationState('exiting')).toBe('exiting');
    expect(dismissNotificationState('exited')).toBe('exited');
  });
  it('are visible until exited', () => {
    expect(NOTIFICATION_STATES.filter(isNotificationVisible)).toEqual(['entering', 'entered', 'exiting']);
  });
});

describe('notification limits', () => {
  it('are at most 5, bottom-right, hidden after 4000 ms', () => {
    expect(NOTIFICATION_LIMIT).toBe(5);
    expect(NOTIFICATION_POSITION).toEqual({ vertical: 'bottom', horizontal: 'right' });
    expect(NOTIFICATION_AUTO_HIDE_MS).toBe(4000);
  });
});
