import type { ReactNode } from 'react';
import { Alert, Stack, Typography } from '@mui/material';

/**
 * One section of the admin screen: its heading (which names the section for assistive technology),
 * the section's main action beside it, and the outcome of the last action, dismissible.
 */
export function AdminSection({
  id,
  title,
  action,
  outcome,
  onOutcomeClose,
  children,
}: {
  /** The heading's id, referenced by the section's aria-labelledby. */
  id: string;
  title: string;
  action: ReactNode;
  outcome?: string;
  onOutcomeClose: () => void;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id}>
      <Stack direction="row" alignItems="center" justifyContent="space-between" sx={{ mb: 1 }}>
        <Typography id={id} variant="h6" component="h2">
          {title}
        </Typography>
        {action}
      </Stack>
      {outcome && (
        <Alert severity="success" role="status" onClose={onOutcomeClose} sx={{ mb: 1 }}>
          {outcome}
        </Alert>
      )}
      {children}
    </section>
  );
}
