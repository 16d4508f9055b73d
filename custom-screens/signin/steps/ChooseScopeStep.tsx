import { useState } from 'react';
import { Button, Checkbox, FormControlLabel, FormGroup, Stack, Typography } from '@mui/material';
import type { SignInFlow } from '../useSignIn';

/** Choose scope: a checkbox per scope the app asked for (all ticked at first), Set scope. */
export function ChooseScopeStep({ flow, appName }: { flow: SignInFlow; appName?: string }) {
  const { scopes, busy } = flow.state;
  const [chosen, setChosen] = useState<string[]>(scopes);
  const toggle = (scope: string, on: boolean) =>
    setChosen((current) => (on ? [...current, scope] : current.filter((s) => s !== scope)));
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void flow.setScope(scopes.filter((s) => chosen.includes(s)));
      }}
    >
      <Stack spacing={2}>
        <Typography variant="h6" component="h2" id="scope-heading">
          Choose scope
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {appName ?? 'The application'} asks for this access. Untick what you do not want to grant.
        </Typography>
        <FormGroup aria-labelledby="scope-heading">
          {scopes.map((scope) => (
            <FormControlLabel
              key={scope}
              control={<Checkbox checked={chosen.includes(scope)} onChange={(e) => toggle(scope, e.target.checked)} />}
              label={scope}
            />
          ))}
        </FormGroup>
        <Button type="submit" variant="contained" disabled={busy}>
          Set scope
        </Button>
      </Stack>
    </form>
  );
}
