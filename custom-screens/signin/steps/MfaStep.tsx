import { useState } from 'react';
import { Alert, AlertTitle, Button, Stack, TextField } from '@mui/material';
import type { SignInFlow } from '../useSignIn';

/** MFA code, Submit code; a refused code shows a red alert titled Error (app-spec §8). */
export function MfaStep({ flow }: { flow: SignInFlow }) {
  const [code, setCode] = useState('');
  const { busy, fieldErrors, issues } = flow.state;
  const problems = [...Object.values(fieldErrors), ...issues];
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void flow.submitMfa(code);
      }}
    >
      <Stack spacing={2}>
        {problems.length > 0 && (
          <Alert severity="error" role="alert">
            <AlertTitle>Error</AlertTitle>
            {problems.join('\n')}
          </Alert>
        )}
        <TextField
          label="MFA code"
          name="token"
          required
          autoFocus
          autoComplete="one-time-code"
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={problems.length > 0}
        />
        <Button type="submit" variant="contained" disabled={busy}>
          Submit code
        </Button>
      </Stack>
    </form>
  );
}
