import { Alert, AlertTitle } from '@mui/material';

/** The server's messages that name no field, in a red alert (app-spec §8: "Outcome issue alert"). */
export function IssueList({ issues, title }: { issues: string[]; title?: string }) {
  if (issues.length === 0) return null;
  return (
    <Alert severity="error" role="alert">
      {title && <AlertTitle>{title}</AlertTitle>}
      {issues.length === 1 ? (
        issues[0]
      ) : (
        <ul style={{ margin: 0, paddingLeft: 16 }}>
          {issues.map((issue) => (
            <li key={issue}>{issue}</li>
          ))}
        </ul>
      )}
    </Alert>
  );
}
