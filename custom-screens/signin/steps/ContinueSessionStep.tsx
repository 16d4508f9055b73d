import { Avatar, Button, Paper, Stack, Typography } from '@mui/material';
import type { OpenSession } from '../useOpenSession';
import type { SignInFlow } from '../useSignIn';

function initials(name: string): string {
  const words = name.split(/\s+/).filter(Boolean);
  return `${words[0]?.[0] ?? ''}${words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : ''}`.toUpperCase();
}

/**
 * `/oauth` when someone is signed in to Hearth EMR in this browser: continue as them (one click, no
 * password; the consent step follows), or sign in with another account.
 */
export function ContinueSessionStep({
  flow,
  session,
  onOtherAccount,
}: {
  flow: SignInFlow;
  session: OpenSession;
  onOtherAccount: () => void;
}) {
  const { busy } = flow.state;
  return (
    <Stack spacing={2}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack direction="row" spacing={2} alignItems="center">
          <Avatar sx={{ bgcolor: 'primary.main' }} aria-hidden>
            {initials(session.name)}
          </Avatar>
          <Stack minWidth={0}>
            <Typography variant="subtitle1" component="p" noWrap>
              {session.name}
            </Typography>
            {session.project && (
              <Typography variant="body2" color="text.secondary" noWrap>
                {session.project}
              </Typography>
            )}
            {session.email && (
              <Typography variant="body2" color="text.secondary" noWrap>
                {session.email}
              </Typography>
            )}
          </Stack>
        </Stack>
      </Paper>
      <Button variant="contained" disabled={busy} onClick={() => void flow.continueSession()}>
        Continue as {session.name}
      </Button>
      <Button variant="text" disabled={busy} onClick={onOtherAccount}>
        Use another account
      </Button>
    </Stack>
  );
}
