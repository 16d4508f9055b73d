import type { Theme } from '@mui/material/styles';

/**
 * The colour of a flagged value, shared by the summary's vitals and the Observation list so that a
 * high reading looks the same in both: red when critical, else amber (high or low). Each keeps the
 * AA contrast of text on the paper of its colour scheme.
 */
export function flagColour(theme: Theme, critical: boolean): string {
  const dark = theme.palette.mode === 'dark';
  if (critical) return dark ? '#ff8a80' : '#b71c1c';
  return dark ? '#ffcc80' : '#8a4b00';
}
