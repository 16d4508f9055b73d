import { STATUS_BADGE_COLORS, type StatusColor } from '../../config/clinical/statusBadgeColors';

export type { StatusColor };

/** The badge colour of a status code (app-spec §4): unknown, retired, waitlist, routine and anything unlisted are gray. */
export function statusColor(status: string): StatusColor {
  for (const [color, statuses] of Object.entries(STATUS_BADGE_COLORS)) {
    if (statuses.includes(status)) return color as StatusColor;
  }
  return 'gray';
}
