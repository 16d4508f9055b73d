import { Alert, Button, Stack } from '@mui/material';
import type { SignedInAccount } from '../useSignedInAccounts';
import type { LaunchProblem, NotOfferedReason } from '../launchAccountChoice';

const accountName = (account: SignedInAccount) =>
  account.project ? `${account.name} (${account.project})` : account.name;

/** The app's name opening a sentence ("the application" when it has none). */
const opening = (app: string) => `${app.charAt(0).toUpperCase()}${app.slice(1)}`;

const notOfferedText: Record<NotOfferedReason, (app: string) => string> = {
  startedBySomeoneElse: (app) =>
    `${app} was launched from another account, and only the account that launched it can continue.`,
  unknown: () => 'this launch belongs to another project.',
};

/**
 * Under the `/oauth` chooser of an EHR launch: the accounts signed in here that are not offered,
 * and why, in plain words (a person who sees fewer accounts than the account menu shows should not
 * wonder where the others went).
 */
export function NotOfferedNotice({
  notOffered,
  appName,
}: {
  notOffered: { account: SignedInAccount; reason: NotOfferedReason }[];
  appName: string;
}) {
  if (notOffered.length === 0) return null;
  const lines = notOffered.map(
    ({ account, reason }) => `${accountName(account)} is not offered: ${notOfferedText[reason](appName)}`,
  );
  return (
    <Alert severity="info" role="status">
      {lines.length === 1 ? (
        lines[0]
      ) : (
        <ul style={{ margin: 0, paddingLeft: 16 }}>
          {lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
    </Alert>
  );
}

const problemText: Record<LaunchProblem, (app: string) => string> = {
  expired: (app) => `This launch has expired: a launch can be used for 15 minutes. Launch ${app} again from the chart.`,
  used: (app) => `This launch was already used to sign in. Launch ${app} again from the chart.`,
  unknown: (app) =>
    `None of the accounts signed in in this browser knows this launch: it may belong to another project, or no longer exist. Launch ${app} again from the chart, or sign in with the account that launched it.`,
  startedElsewhere: (app) =>
    `${opening(app)} was launched from an account that is not signed in in this browser, and only that account can continue. Sign in with that account, or launch ${app} again from your own chart.`,
};

/**
 * The `/oauth` page of an EHR launch that no account signed in here can continue into: says why
 * instead of offering accounts. Signing in with another account helps only when the launch may be
 * that account's; an expired or used launch has to be started again, so no button is offered then.
 */
export function LaunchProblemNotice({
  problem,
  appName,
  onOtherAccount,
}: {
  problem: LaunchProblem;
  appName: string;
  onOtherAccount: () => void;
}) {
  const anotherAccountHelps = problem === 'unknown' || problem === 'startedElsewhere';
  return (
    <Stack spacing={2}>
      <Alert severity="warning" role="alert">
        {problemText[problem](appName)}
      </Alert>
      {anotherAccountHelps && (
        <Button variant="outlined" onClick={onOtherAccount}>
          Use another account
        </Button>
      )}
    </Stack>
  );
}
