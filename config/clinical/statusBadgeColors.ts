/** Status badge colours of app-spec §4; anything not listed (unknown, retired, waitlist, routine…) is gray. */
export type StatusColor = 'blue' | 'yellow' | 'red' | 'green' | 'gray';

export const STATUS_BADGE_COLORS: Readonly<Record<Exclude<StatusColor, 'gray'>, readonly string[]>> = {
  blue: [
    'draft',
    'active',
    'registered',
    'preliminary',
    'requested',
    'received',
    'accepted',
    'ready',
    'in-progress',
    'proposed',
    'pending',
    'booked',
    'arrived',
    'checked-in',
    'connected',
  ],
  yellow: ['on-hold', 'amended', 'corrected'],
  red: [
    'revoked',
    'entered-in-error',
    'rejected',
    'failed',
    'cancelled',
    'noshow',
    'not-done',
    'disconnected',
    'urgent',
    'asap',
    'stat',
  ],
  green: ['completed', 'final', 'fulfilled'],
};

/** Listed explicitly as gray in §4 (the rest is gray by default). */
export const GRAY_STATUSES: readonly string[] = ['unknown', 'retired', 'waitlist', 'routine'];
