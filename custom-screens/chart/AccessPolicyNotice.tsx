import { Alert } from '@mui/material';

/**
 * In place of a tab (reached by a link or a typed address) the caller's access policy does not
 * include: a plain statement, not an error — nothing failed, and nothing is for them to fix.
 */
export function AccessPolicyNotice({ label }: { label: string }) {
  return (
    <Alert severity="info" sx={{ m: { xs: 1, sm: 2 } }}>
      Your access policy does not include {label}.
    </Alert>
  );
}
