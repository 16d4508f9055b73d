import { Link as RouterLink, useParams } from 'react-router-dom';
import { Alert, AlertTitle, Box, Button, CircularProgress, Link, Typography } from '@mui/material';
import { isEPrescribingEnabled, useSession } from '../../src/shell';
import { ALL_SECRET_NAMES } from './ePrescribingAnswers';
import { describeEPrescribingFailure } from './ePrescribingFailure';
import { useEPrescribingFrame } from './useEPrescribingFrame';

/** Deploy command named in the messages, so an administrator knows what to run. */
const DEPLOY_COMMAND = 'npm run deploy-dosespot -- --project <project id>';

/**
 * The e-prescribing frame (`/dosespot`, `/Patient/:patientId/dosespot`): DoseSpot's own screens in
 * a frame, signed in as the clinician through the DoseSpot bots. Shown only to members with a
 * DoseSpot clinician id; a project without DoseSpot secrets is told plainly what to set.
 */
export function EPrescribingPage() {
  const session = useSession();
  if (!isEPrescribingEnabled(session.membership)) {
    return (
      <Alert severity="info" sx={{ m: 2 }}>
        E-prescribing is not enabled for your account: it needs a DoseSpot clinician id on your project membership.
      </Alert>
    );
  }
  return <EPrescribingFrameView />;
}

function EPrescribingFrameView() {
  const { patientId } = useParams();
  const { frame, retry } = useEPrescribingFrame(patientId);
  switch (frame.phase) {
    case 'loading':
      return (
        <Box sx={{ p: 2, display: 'flex', gap: 2, alignItems: 'center' }}>
          <CircularProgress aria-label="Loading..." />
          <Typography>{patientId ? 'Sending the patient to DoseSpot...' : 'Opening DoseSpot...'}</Typography>
        </Box>
      );
    case 'not-configured':
      return (
        <Alert severity="warning" sx={{ m: 2, maxWidth: 800 }} data-testid="eprescribing-not-configured">
          <AlertTitle>E-prescribing is not configured for this project</AlertTitle>
          <Typography variant="body2" sx={{ mb: 1 }}>
            A project administrator sets these project secrets (
            <Link component={RouterLink} to="/admin/project">
              Project administration
            </Link>
            , Project secrets) with the values DoseSpot issued for the clinic:
          </Typography>
          <Box component="ul" sx={{ mt: 0, mb: 1 }}>
            {ALL_SECRET_NAMES.map((name) => (
              <li key={name}>
                <code>{name}</code>
                {frame.missing.includes(name) ? ' (missing)' : ''}
                {name === 'DOSESPOT_BASE_URL'
                  ? ': https://my.staging.dosespot.com/ (default) or https://my.dosespot.com/'
                  : ''}
              </li>
            ))}
          </Box>
          <Typography variant="body2">
            The DoseSpot bots are installed with <code>{DEPLOY_COMMAND}</code>.
          </Typography>
        </Alert>
      );
    case 'error': {
      const failure = describeEPrescribingFailure(frame.message);
      return (
        <Alert
          severity="error"
          sx={{ m: 2, maxWidth: 800 }}
          data-testid="eprescribing-error"
          action={
            <Button color="inherit" size="small" onClick={retry} sx={{ whiteSpace: 'nowrap' }}>
              Try again
            </Button>
          }
        >
          <AlertTitle>{failure.title}</AlertTitle>
          {failure.summary && (
            <Typography variant="body2" sx={{ mb: 1 }}>
              {failure.summary}
            </Typography>
          )}
          <Typography variant="body2">{failure.summary ? `Details: ${frame.message}` : frame.message}</Typography>
          {failure.kind === 'bots-missing' && (
            <Typography variant="body2" sx={{ mt: 1 }}>
              Install the DoseSpot bots with <code>{DEPLOY_COMMAND}</code>.
            </Typography>
          )}
        </Alert>
      );
    }
    case 'ready':
      return (
        <Box
          component="iframe"
          src={frame.url}
          title="DoseSpot e-prescribing"
          data-testid="eprescribing-frame"
          sx={{ width: '100%', height: 'calc(100vh - 140px)', minHeight: 600, border: 0, display: 'block' }}
        />
      );
  }
}
