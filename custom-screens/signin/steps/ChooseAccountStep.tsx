import { useState } from 'react';
import { Button, List, ListItem, Stack } from '@mui/material';
import type { SignedInAccount } from '../useSignedInAccounts';
import type { SignInFlow } from '../useSignIn';
import { type AccountRefusal, SignedInAccountCard } from './SignedInAccountCard';

/**
 * `/oauth` when accounts are signed in to Hearth EMR in this browser: one card per account (the
 * active one first) with "Continue as …" — one click, no password; the consent step follows — or
 * "Use another account" for the credentials form. An account the server refuses while the page is
 * open loses its button and says why; the others stay usable.
 */
export function ChooseAccountStep({
  flow,
  accounts,
  onOtherAccount,
}: {
  flow: SignInFlow;
  accounts: SignedInAccount[];
  onOtherAccount: () => void;
}) {
  const { busy } = flow.state;
  const [refusals, setRefusals] = useState<Record<string, AccountRefusal>>({});
  const firstUsable = accounts.find((account) => !refusals[account.key]);
  const continueAs = (account: SignedInAccount) =>
    void flow.continueSession(account, (status) => {
      if (status !== 401 && status !== 403) return;
      setRefusals((current) => ({ ...current, [account.key]: status === 401 ? 'ended' : 'refused' }));
    });
  return (
    <Stack spacing={2}>
      <List
        aria-label="Accounts signed in in this browser"
        disablePadding
        sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}
      >
        {accounts.map((account) => (
          // minWidth 0: a long name or e-mail is cut short inside the card instead of widening the dialog.
          <ListItem key={account.key} disablePadding sx={{ minWidth: 0 }}>
            <SignedInAccountCard
              account={account}
              primary={account === firstUsable}
              refusal={refusals[account.key]}
              busy={busy}
              onContinue={() => continueAs(account)}
            />
          </ListItem>
        ))}
      </List>
      <Button variant="text" disabled={busy} onClick={onOtherAccount}>
        Use another account
      </Button>
    </Stack>
  );
}
