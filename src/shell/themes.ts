import { deepmerge } from '@mui/utils';
import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';

/** Sizes of the shell (app-spec §9). */
export const HEADER_HEIGHT = 60;
export const NAVBAR_WIDTH = 250;

// A disabled field's helper text still informs (format, time zone, 'Read Only'): keep it at the
// secondary text colour, which meets WCAG AA, instead of the disabled grey, which does not.
const readableHelperText = {
  MuiFormHelperText: {
    styleOverrides: {
      root: ({ theme }: { theme: { palette: { text: { secondary: string } } } }) => ({
        '&.Mui-disabled': { color: theme.palette.text.secondary },
      }),
    },
  },
};

// Whoever asks their system for less motion (WCAG 2.3.3) gets menus, dialogs, drawers and toasts
// that appear and leave without sliding or growing. MUI's transitions end on timers, not on
// transitionend, so a zero duration changes nothing else; spinners (CSS animations) keep turning,
// as they carry meaning.
const reducedMotion = {
  MuiCssBaseline: {
    styleOverrides: {
      '@media (prefers-reduced-motion: reduce)': {
        '*, *::before, *::after': { transitionDuration: '0s !important', transitionDelay: '0s !important' },
      },
    },
  },
};

const components = { ...readableHelperText, ...reducedMotion };

// Darker primary colours than the defaults so links and buttons keep WCAG AA contrast on both backgrounds.
// The error colour is what an invalid field's label and message are drawn in, on the filled input's
// tint: MUI's #d32f2f is 4.4:1 there in light and its #f44336 2.4:1 in a dark dialog; these meet
// 4.5:1. The dark scheme keeps a deep red as `error.dark` (the count badges' white digits).
export const lightTheme: RaThemeOptions = deepmerge(defaultLightTheme, {
  palette: {
    mode: 'light',
    primary: { main: '#1565c0' },
    secondary: { main: '#00695c' },
    error: { main: '#c62828' },
  },
  sidebar: { width: NAVBAR_WIDTH, closedWidth: 0 },
  components,
});

export const darkTheme: RaThemeOptions = deepmerge(defaultDarkTheme, {
  palette: {
    mode: 'dark',
    primary: { main: '#90caf9' },
    secondary: { main: '#80cbc4' },
    error: { main: '#ffb4ab', dark: '#c62828' },
  },
  sidebar: { width: NAVBAR_WIDTH, closedWidth: 0 },
  components,
});
