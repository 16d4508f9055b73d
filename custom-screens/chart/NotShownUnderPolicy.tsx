import { Typography, type SxProps, type Theme } from '@mui/material';

/**
 * One quiet line naming what the chart leaves out because the caller's access policy does not let
 * them read it: they know it exists and why they do not see it, without an alarm for each part
 * (nothing failed). Nothing when nothing is left out.
 */
export function NotShownUnderPolicy({ parts, sx }: { parts: readonly string[]; sx?: SxProps<Theme> }) {
  if (parts.length === 0) return null;
  return (
    <Typography variant="body2" color="text.secondary" sx={sx} data-not-shown-under-policy>
      Not shown under your access policy: {parts.join(', ')}.
    </Typography>
  );
}
