import { Avatar, Button, Chip, Paper, Stack, Typography } from '@mui/material';
import type { SignedInAccount } from '../useSignedInAccounts';

/** Why an account that was offered can no longer continue into this app. */
export type AccountRefusal = 'ended' | 'refused';

const refusalText: Record<AccountRefusal, string> = {
  ended: 'Signed out: sign in again with "Use another account"',
  refused: 'Cannot continue into this application',
};

function initials(name: string): string {
  const words = name.split(/\s+/).filter(Boolean);
  return `${words[0]?.[0] ?? ''}${words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : ''}`.toUpperCase();
}

/**
 * One account of the `/oauth` account chooser: who (name, project, e-mail, whether the app's tabs
 * use it) and "Continue as …", or, once the server refused it, why it cannot continue.
 */
export function SignedInAccountCard({
  account,
  primary,
  refusal,
  busy,
  onContinue,
}: {
  account: SignedInAccount;
  primary: boolean;
  refusal?: AccountRefusal;
  busy: boolean;
  onContinue: () => void;
}) {
  return (
    <Paper variant="outlined" sx={{ p: 2, width: '100%', minWidth: 0 }}>
      <Stack spacing={1.5}>
        <Stack direction="row" spacing={2} alignItems="center">
          <Avatar sx={{ bgcolor: 'primary.main' }} aria-hidden>
            {initials(account.name)}
          </Avatar>
          <Stack minWidth={0} flexGrow={1}>
            <Typography variant="subtitle1" component="p" noWrap>
              {account.name}
            </Typography>
            {account.project && (
              <Typography variant="body2" color="text.secondary" noWrap>
                {account.project}
              </Typography>
            )}
            {account.email && (
              <Typography variant="body2" color="text.secondary" noWrap>
                {account.email}
              </Typography>
            )}
            {/* Which account the app's own tabs use: continuing as another one does not change it. */}
            {account.active && (
              <Chip size="small" label="In use in Hearth EMR" sx={{ alignSelf: 'flex-start', mt: 0.5 }} />
            )}
          </Stack>
        </Stack>
        {refusal ? (
          <Typography variant="body2" color="text.secondary">
            {refusalText[refusal]}
          </Typography>
        ) : (
          <Button
            variant={primary ? 'contained' : 'outlined'}
            disabled={busy}
            onClick={onContinue}
            // The same person may be signed in to two projects: the name says which, after the visible words.
            aria-label={account.project ? `Continue as ${account.name}, ${account.project}` : undefined}
          >
            Continue as {account.name}
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
