import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Alert, Box, Button, CircularProgress, Stack, TextField, Typography } from '@mui/material';
import QRCode from 'qrcode';
import { normalizeErrorString } from '../../data-provider/outcomes';
import { useShellClient, useToast } from '../../src/shell';
import { accountApi, type MfaStatus } from './accountApi';
import { fieldErrors } from './fieldErrors';

/** Two-factor sign-in: a QR code of the server's otpauth URL to enrol, or a code to turn it off. */
export function MfaSection() {
  const client = useShellClient();
  const toast = useToast();
  const [status, setStatus] = useState<MfaStatus>();
  const [loadError, setLoadError] = useState<string>();
  const [qrCode, setQrCode] = useState<string>();
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string>();
  const [saving, setSaving] = useState(false);

  const load = useCallback(() => {
    accountApi.mfaStatus(client).then(setStatus, (error: unknown) => setLoadError(normalizeErrorString(error)));
  }, [client]);
  useEffect(load, [load]);

  useEffect(() => {
    if (!status?.enrollUri) {
      setQrCode(undefined);
      return;
    }
    let active = true;
    QRCode.toDataURL(status.enrollUri, { margin: 1, width: 200 }).then(
      (url) => active && setQrCode(url),
      (error: unknown) => active && setLoadError(normalizeErrorString(error)),
    );
    return () => {
      active = false;
    };
  }, [status?.enrollUri]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setCodeError('Code is required');
      return;
    }
    setSaving(true);
    setCodeError(undefined);
    try {
      const next = status?.enrolled
        ? await accountApi.disableMfa(client, code)
        : await accountApi.enrollMfa(client, code);
      toast.success(next.enrolled ? 'Two-factor sign-in enabled' : 'Two-factor sign-in disabled');
      setCode('');
      setStatus(undefined);
      load();
    } catch (error) {
      const { byField, general } = fieldErrors(error, ['token']);
      setCodeError(byField.token ?? general);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack spacing={2} component="section" aria-labelledby="mfa-heading">
      <Typography variant="h6" component="h2" id="mfa-heading">
        Two-factor sign-in
      </Typography>
      {loadError && <Alert severity="error">{loadError}</Alert>}
      {!status && !loadError && <CircularProgress aria-label="Loading..." size={24} />}
      {status?.enrolled && (
        <Alert severity="success">
          Two-factor sign-in is on: signing in asks for a code from your authenticator app.
        </Alert>
      )}
      {status && !status.enrolled && (
        <Box>
          <Typography variant="body2" sx={{ mb: 1 }}>
            Scan this QR code with an authenticator app, then enter the 6-digit code it shows.
          </Typography>
          {qrCode ? (
            <img src={qrCode} width={200} height={200} alt="QR code for your authenticator app" />
          ) : (
            <CircularProgress aria-label="Loading..." size={24} />
          )}
        </Box>
      )}
      {status && (
        <Stack component="form" direction="row" spacing={1} alignItems="flex-start" onSubmit={submit} noValidate>
          <TextField
            label={status.enrolled ? 'Code to turn off' : 'Code from the app'}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            error={codeError !== undefined}
            helperText={codeError}
            slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'one-time-code' } }}
            size="small"
          />
          <Button type="submit" variant="contained" disabled={saving} color={status.enrolled ? 'error' : 'primary'}>
            {status.enrolled ? 'Turn off' : 'Enable'}
          </Button>
        </Stack>
      )}
    </Stack>
  );
}
