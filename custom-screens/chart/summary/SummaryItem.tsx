import type { ReactNode } from 'react';
import { Box, ButtonBase, Typography } from '@mui/material';
import { StatusBadge } from '../../../src/datatypes/StatusBadge';

export interface SummaryItemProps {
  primary: string;
  secondary?: ReactNode;
  status?: string;
  /** What the button says to assistive technology, e.g. 'Edit allergy Peanut'. */
  label: string;
  onOpen(): void;
}

/** A row of a summary section; choosing it opens its edit modal. */
export function SummaryItem(props: SummaryItemProps) {
  return (
    <Box component="li" sx={{ listStyle: 'none' }}>
      <ButtonBase
        onClick={props.onOpen}
        aria-label={props.label}
        sx={{
          width: '100%',
          justifyContent: 'space-between',
          alignItems: 'flex-start',
          textAlign: 'left',
          gap: 1,
          py: 0.5,
          px: 0.5,
          borderRadius: 1,
          '&:hover': { bgcolor: 'action.hover' },
          '&.Mui-focusVisible': { outline: 2, outlineColor: 'primary.main', outlineStyle: 'solid' },
        }}
      >
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            {props.primary}
          </Typography>
          {props.secondary ? (
            <Typography variant="caption" color="text.secondary" component="div">
              {props.secondary}
            </Typography>
          ) : null}
        </Box>
        {props.status ? <StatusBadge status={props.status} /> : null}
      </ButtonBase>
    </Box>
  );
}

export function SummaryList(props: { children: ReactNode }) {
  return (
    <Box component="ul" sx={{ m: 0, p: 0 }}>
      {props.children}
    </Box>
  );
}
