import type { ReactNode } from 'react';
import { Alert, Box, IconButton, Tooltip, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import { isAccessDenied } from '../accessDenied';
import { NotShownUnderPolicy } from '../NotShownUnderPolicy';

export interface SummarySectionProps {
  title: string;
  /** What the add button says to assistive technology, e.g. 'Add allergy'. */
  actionLabel: string;
  /** 'edit' for sections that record one current value (smoking status), else 'add'. */
  actionIcon?: 'add' | 'edit';
  /** Whether the add/edit button is offered (useMayRecord). */
  editable: boolean;
  onAction(): void;
  loading: boolean;
  error?: Error;
  /** Shown when the section has nothing to list. */
  emptyText: string;
  isEmpty: boolean;
  children?: ReactNode;
  /** The section's open modal, rendered whatever the list shows (loading, empty). */
  modal?: ReactNode;
}

/** One titled section of the patient summary with its add/edit button. */
export function SummarySection(props: SummarySectionProps) {
  const headingId = `summary-${props.title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ px: 2, py: 1.25, borderTop: 1, borderColor: 'divider' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', minHeight: 32 }}>
        <Typography id={headingId} component="h3" variant="subtitle2" sx={{ fontWeight: 700 }}>
          {props.title}
        </Typography>
        {props.editable && (
          <Tooltip title={props.actionLabel}>
            <IconButton size="small" aria-label={props.actionLabel} onClick={props.onAction}>
              {props.actionIcon === 'edit' ? <EditIcon fontSize="small" /> : <AddIcon fontSize="small" />}
            </IconButton>
          </Tooltip>
        )}
      </Box>
      {props.error && isAccessDenied(props.error) ? (
        // A refusal the policy's entries did not foresee (a compartment, SMART scopes): not a failure.
        <NotShownUnderPolicy parts={[props.title]} />
      ) : props.error ? (
        <Alert severity="error" sx={{ mt: 0.5 }}>
          {props.error.message}
        </Alert>
      ) : props.loading ? (
        <Typography variant="body2" color="text.secondary">
          Loading...
        </Typography>
      ) : props.isEmpty ? (
        <Typography variant="body2" color="text.secondary">
          {props.emptyText}
        </Typography>
      ) : (
        props.children
      )}
      {props.modal}
    </Box>
  );
}
