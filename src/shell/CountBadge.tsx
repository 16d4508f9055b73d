import type { ReactNode } from 'react';
import { Badge } from '@mui/material';

// MUI's dark-scheme error red (#f44336) under white 12px digits is 3.7:1; its darker shade
// passes 4.5:1 in both schemes, so every header count reads the same way.
const countBadgeSx = { '& .MuiBadge-badge': { bgcolor: 'error.dark', color: 'common.white' } } as const;

interface CountBadgeProps {
  count: number | undefined;
  children: ReactNode;
  'data-testid'?: string;
}

/** A header icon's red count (mail, tasks, e-prescribing): hidden at zero, capped at 99+. */
export function CountBadge({ count, children, 'data-testid': testId }: CountBadgeProps) {
  return (
    <Badge badgeContent={count} color="error" max={99} sx={countBadgeSx} data-testid={testId}>
      {children}
    </Badge>
  );
}
