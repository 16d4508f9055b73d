import { Chip } from '@mui/material';
import { statusColor, type StatusColor } from './statusColor';

// Darker shades in light mode and lighter ones in dark mode keep the text at WCAG AA contrast.
// [background, text] per scheme; the lists' plain-cell badges (src/search/SearchControl.tsx) use them too.
export const STATUS_BADGE_PALETTE: Readonly<
  Record<StatusColor, { light: readonly [string, string]; dark: readonly [string, string] }>
> = {
  blue: { light: ['#dbe7ff', '#0b3d91'], dark: ['#1e3a6b', '#cfe0ff'] },
  yellow: { light: ['#fff1c2', '#6b4c00'], dark: ['#5a4500', '#ffe8a3'] },
  red: { light: ['#ffdcdc', '#8f1111'], dark: ['#6b1a1a', '#ffd0d0'] },
  green: { light: ['#d6f5df', '#135c2b'], dark: ['#1b5232', '#c8f2d5'] },
  gray: { light: ['#e8e8e8', '#333333'], dark: ['#444444', '#eeeeee'] },
};

/**
 * A status code as a coloured badge (app-spec §4). `label` says the status in words where a screen
 * names it for people ("No-show" for `noshow`); the colour is the code's either way.
 */
export function StatusBadge(props: { status: string; label?: string; testId?: string }) {
  const colors = STATUS_BADGE_PALETTE[statusColor(props.status)];
  return (
    <Chip
      size="small"
      label={props.label ?? props.status}
      data-testid={props.testId}
      data-status-color={statusColor(props.status)}
      sx={(theme) => {
        const [background, text] = theme.palette.mode === 'dark' ? colors.dark : colors.light;
        return { bgcolor: background, color: text, fontWeight: 600 };
      }}
    />
  );
}
