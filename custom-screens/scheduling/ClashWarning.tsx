import { Alert, AlertTitle, Box, Button } from '@mui/material';

/**
 * The clashes found for the chosen slot. A warning, not a block: the desk may know that the
 * other appointment is about to move, or that double-booking is intended.
 */
export function ClashWarning({
  title,
  lines,
  proceedLabel,
  busy,
  onProceed,
  onChangeTime,
}: {
  title: string;
  lines: readonly string[];
  proceedLabel: string;
  busy: boolean;
  onProceed: () => void;
  onChangeTime: () => void;
}) {
  return (
    <Alert severity="warning" role="alert" sx={{ mb: 2 }}>
      <AlertTitle>{title}</AlertTitle>
      {lines.map((line) => (
        <div key={line}>{line}</div>
      ))}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }}>
        <Button variant="contained" color="warning" size="small" onClick={onProceed} disabled={busy}>
          {proceedLabel}
        </Button>
        <Button color="inherit" size="small" onClick={onChangeTime} disabled={busy}>
          Change time
        </Button>
      </Box>
    </Alert>
  );
}
