/** Status badge colours of app-spec §4. */
export type StatusColor = 'blue' | 'yellow' | 'red' | 'green' | 'gray';

const COLORS: Record<Exclude<StatusColor, 'gray'>, readonly string[]> = {
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

/** unknown, retired, waitlist, routine and anything unlisted are gray. */
export function statusColor(status: string): StatusColor {
  for (const [color, statuses] of Object.entries(COLORS)) {
    if (statuses.includes(status)) return color as StatusColor;
  }
  return 'gray';
}
