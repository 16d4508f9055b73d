import { useMediaQuery, useTheme } from '@mui/material';

/**
 * Whether the window is narrower than the theme's `md` breakpoint (phones, small tablets), where
 * the side navigation is an overlay drawer instead of a column beside the page. Read on the first
 * render (`noSsr`), so a phone never paints the wide layout before switching.
 */
export function useNarrowLayout(): boolean {
  const theme = useTheme();
  return useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
}
