import type { ReactNode } from 'react';
import { Alert, AlertTitle, Box } from '@mui/material';

export const RECOVERED_ANSWERS_TITLE = 'Recovered answers that were not saved';

/**
 * Above a form that opened with answers restored from this browser: the clinician must know the
 * form is not what the server had, and what happens to them now (`children`). An alert, so screen
 * readers announce it when the page opens. The action goes under the text, not beside it: in the
 * task page's narrow column a side action squeezed both into a few words per line.
 */
export function RecoveredAnswersNotice({ children, action }: { children: ReactNode; action?: ReactNode }) {
  return (
    <Alert severity="warning" sx={{ my: 1 }} data-testid="recovered-answers">
      <AlertTitle>{RECOVERED_ANSWERS_TITLE}</AlertTitle>
      {children}
      {action && <Box sx={{ mt: 1 }}>{action}</Box>}
    </Alert>
  );
}
