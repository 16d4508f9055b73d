import type { ReactNode } from 'react';
import { Box, FormHelperText, Typography } from '@mui/material';

/** A labelled group of sub-inputs (a fieldset, so screen readers announce the group's name). */
export function FieldGroup(props: { label: string; required?: boolean; error?: string; children: ReactNode }) {
  return (
    <Box component="fieldset" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, m: 0, p: 1.5, minWidth: 0 }}>
      <Typography component="legend" variant="caption" sx={{ px: 0.5, color: 'text.secondary' }}>
        {props.label}
        {props.required ? ' *' : ''}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, '& > *': { flex: '1 1 160px' } }}>{props.children}</Box>
      {props.error && <FormHelperText error>{props.error}</FormHelperText>}
    </Box>
  );
}
