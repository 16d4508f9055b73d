import type { ReactNode } from 'react';
import { Box, ButtonBase, Typography } from '@mui/material';
import { StatusBadge } from '../../../src/datatypes/StatusBadge';
import { VisuallyHidden } from './VisuallyHidden';

export interface SummaryItemProps {
  primary: string;
  secondary?: ReactNode;
  status?: string;
  /** What choosing the row does, said to assistive technology before the row's text ('Edit allergy'). */
  action: string;
  onOpen(): void;
  /** Whether choosing the row opens its edit modal (useMayRecord); else the row is read only. */
  editable: boolean;
}

/** A row of a summary section; choosing it opens its edit modal for those who may edit it, others read it. */
export function SummaryItem(props: SummaryItemProps) {
  return (
    <Box component="li" sx={{ listStyle: 'none' }}>
      <ButtonBase
        onClick={props.onOpen}
        disabled={!props.editable}
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
        <Box component="span" sx={{ minWidth: 0 }}>
          <Typography component="span" variant="body2" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
            {props.editable && <VisuallyHidden>{`${props.action} `}</VisuallyHidden>}
            {props.primary}
          </Typography>
          {props.secondary ? (
            <Typography variant="caption" color="text.secondary" component="span" sx={{ display: 'block' }}>
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
