import { useState } from 'react';
import { Box, Button, Checkbox, FormControlLabel, FormGroup, Stack, Typography } from '@mui/material';
import { describeScope } from '../../../data-provider/access';
import type { LaunchPatientOption } from '../../../data-provider/client';
import type { SignInFlow } from '../useSignIn';
import { LaunchPatientField } from './LaunchPatientField';

/**
 * Choose scope: a checkbox per scope the app asked for (all ticked at first), each said in words
 * with the scope itself under it, then Set scope.
 */
export function ChooseScopeStep({ flow, appName }: { flow: SignInFlow; appName?: string }) {
  const { scopes, busy, patientChoice, fieldErrors } = flow.state;
  const [chosen, setChosen] = useState<string[]>(scopes);
  const [patient, setPatient] = useState<LaunchPatientOption | null>(null);
  const [patientMissing, setPatientMissing] = useState(false);
  // A clinician's standalone launch asks which patient, unless they untick launch/patient.
  const asksPatient = patientChoice && chosen.includes('launch/patient');
  const toggle = (scope: string, on: boolean) =>
    setChosen((current) => (on ? [...current, scope] : current.filter((s) => s !== scope)));
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (asksPatient && !patient) {
          setPatientMissing(true);
          return;
        }
        void flow.setScope(
          scopes.filter((s) => chosen.includes(s)),
          asksPatient ? patient?.id : undefined,
        );
      }}
    >
      <Stack spacing={2}>
        <Typography variant="h6" component="h2" id="scope-heading">
          Choose scope
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {appName ?? 'The application'} asks for this access. Untick what you do not want to grant.
        </Typography>
        <FormGroup aria-labelledby="scope-heading" sx={{ gap: 1 }}>
          {scopes.map((scope) => (
            <FormControlLabel
              key={scope}
              sx={{ alignItems: 'flex-start' }}
              control={
                <Checkbox
                  checked={chosen.includes(scope)}
                  onChange={(e) => toggle(scope, e.target.checked)}
                  sx={{ pt: 0.5 }}
                />
              }
              label={
                <Box component="span" sx={{ display: 'flex', flexDirection: 'column', pt: 0.75 }}>
                  <Typography component="span" variant="body2">
                    {describeScope(scope)}
                  </Typography>
                  {/* A space for the accessible name ("… chart launch"); a flex column does not render it. */}{' '}
                  <Typography
                    component="span"
                    variant="caption"
                    color="text.secondary"
                    sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}
                  >
                    {scope}
                  </Typography>
                </Box>
              }
            />
          ))}
        </FormGroup>
        {asksPatient && (
          <LaunchPatientField
            flow={flow}
            value={patient}
            onChange={(next) => {
              setPatient(next);
              setPatientMissing(false);
            }}
            error={patientMissing && !patient ? 'Choose the patient the application is about' : fieldErrors.patient}
          />
        )}
        <Button type="submit" variant="contained" disabled={busy}>
          Set scope
        </Button>
      </Stack>
    </form>
  );
}
