import { useMemo } from 'react';
import { Alert, Box, Button, Paper, Stack, TextField, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { normalizeErrorString, normalizeOperationOutcome } from '../../data-provider/outcomes';
import { MaskedSecretField } from './MaskedSecretField';
import {
  newSiteForm,
  siteFormProblems,
  siteFormsOf,
  sitesOf,
  type SiteField,
  type SiteForm,
  type SiteFormProblems,
} from './siteForms';
import { useProjectAdminActions, useProjectRecord } from './useProjectAdmin';
import { useRowsEditor } from './useRowsEditor';

/**
 * Sites (`Project.site`, Medplum's per-domain sign-in settings), saved together through
 * `POST /admin/projects/{id}/sites`. Hearth stores them for Medplum apps and tools but its own
 * sign-in does not read them yet; the screen says so.
 */
export function SitesSection() {
  const project = useProjectRecord();
  const actions = useProjectAdminActions();
  const stored = useMemo(() => (project.data ? siteFormsOf(project.data.site) : undefined), [project.data]);
  const editor = useRowsEditor<SiteForm, SiteFormProblems>({
    stored,
    validate: (forms) => siteFormProblems(forms),
    submit: (forms) => actions.saveSites(sitesOf(forms)),
    savedMessage: (forms) => `Saved ${forms.length} site${forms.length === 1 ? '' : 's'}`,
    refusal: (forms, error) => {
      const issues = normalizeOperationOutcome(error).issue ?? [];
      const located = issues.flatMap((issue) =>
        (issue.expression ?? []).map((path) => ({ path, message: issue.details?.text ?? 'Invalid' })),
      );
      const byForm = siteFormProblems(forms, located);
      return { problems: byForm, general: Object.keys(byForm).length > 0 ? undefined : normalizeErrorString(error) };
    },
  });
  const { rows: forms, problems, general, saved, busy } = editor;
  const change = (key: string, field: SiteField, value: string) =>
    editor.change(key, { [field]: value } as Partial<SiteForm>);

  const text = (form: SiteForm, index: number, field: SiteField, label: string, secret = false) => {
    const props = {
      size: 'small' as const,
      label: `Site ${index + 1} ${label}`,
      value: form[field],
      onChange: (event: React.ChangeEvent<HTMLInputElement>) => change(form.key, field, event.target.value),
      error: problems[form.key]?.[field] !== undefined,
      helperText: problems[form.key]?.[field],
      fullWidth: true,
    };
    return secret ? <MaskedSecretField {...props} /> : <TextField {...props} />;
  };

  return (
    <section aria-labelledby="admin-sites-title">
      <Typography id="admin-sites-title" variant="h6" component="h2">
        Sites
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        The domains a Medplum app of this project is served on, with their Google sign-in and reCAPTCHA keys. Hearth
        stores them for Medplum apps and tools; its own sign-in page does not use them yet.
      </Typography>
      {project.error && <Alert severity="error">{project.error.message}</Alert>}
      {forms && (
        <Box component="form" onSubmit={editor.save} noValidate aria-label="Sites">
          <Stack spacing={1.5}>
            {general && <Alert severity="error">{general}</Alert>}
            {saved && (
              <Alert severity="success" role="status">
                {saved}
              </Alert>
            )}
            {forms.length === 0 && <Typography color="text.secondary">No sites.</Typography>}
            {forms.map((form, index) => (
              <Paper key={form.key} variant="outlined" sx={{ p: 2 }}>
                <Stack spacing={1.5}>
                  {text(form, index, 'name', 'name')}
                  <TextField
                    size="small"
                    multiline
                    minRows={2}
                    label={`Site ${index + 1} domains`}
                    value={form.domains}
                    onChange={(event) => change(form.key, 'domains', event.target.value)}
                    error={problems[form.key]?.domains !== undefined}
                    helperText={problems[form.key]?.domains ?? 'One host name per line, e.g. portal.example.org'}
                    fullWidth
                  />
                  <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
                    {text(form, index, 'googleClientId', 'Google client ID')}
                    {text(form, index, 'googleClientSecret', 'Google client secret', true)}
                  </Stack>
                  <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
                    {text(form, index, 'recaptchaSiteKey', 'reCAPTCHA site key')}
                    {text(form, index, 'recaptchaSecretKey', 'reCAPTCHA secret key', true)}
                  </Stack>
                  <Box>
                    <Button color="error" onClick={() => editor.remove(form.key)}>
                      Remove site {index + 1}
                    </Button>
                  </Box>
                </Stack>
              </Paper>
            ))}
            <Stack direction="row" spacing={1}>
              <Button startIcon={<AddIcon />} onClick={() => editor.add(newSiteForm())}>
                Add site
              </Button>
              <Button type="submit" variant="contained" disabled={busy}>
                Save sites
              </Button>
            </Stack>
          </Stack>
        </Box>
      )}
    </section>
  );
}
