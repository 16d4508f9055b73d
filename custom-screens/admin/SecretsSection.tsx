import { useMemo } from 'react';
import { Alert, Box, Button, IconButton, MenuItem, Stack, TextField, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import { normalizeErrorString, normalizeOperationOutcome } from '../../data-provider/outcomes';
import { MaskedSecretField } from './MaskedSecretField';
import {
  newSecretRow,
  projectSettingsOf,
  secretIssueTarget,
  secretRowProblems,
  secretRowsOf,
  type SecretRow,
  type SecretRowProblems,
} from './secretRows';
import { useProjectAdminActions, useProjectRecord } from './useProjectAdmin';
import { useRowsEditor } from './useRowsEditor';

const typeLabels: Record<SecretRow['field'], string> = {
  valueString: 'Text',
  valueBoolean: 'True / false',
  valueInteger: 'Whole number',
  valueDecimal: 'Number',
};

/**
 * Project secrets (`Project.secret`, what bots read as `event.secrets`): add, edit and remove
 * rows, values masked until focused, saved together through `POST /admin/projects/{id}/secrets`.
 * Problems show under their field; a refused save keeps every row as typed.
 */
export function SecretsSection() {
  const project = useProjectRecord();
  const actions = useProjectAdminActions();
  const stored = useMemo(() => (project.data ? secretRowsOf(project.data.secret) : undefined), [project.data]);
  const editor = useRowsEditor<SecretRow, SecretRowProblems>({
    stored,
    validate: secretRowProblems,
    submit: (rows) => actions.saveSecrets(projectSettingsOf(rows)),
    savedMessage: (rows) => `Saved ${rows.length} secret${rows.length === 1 ? '' : 's'}`,
    refusal: (rows, error) => {
      const byRow: SecretRowProblems = {};
      const rest: string[] = [];
      for (const issue of normalizeOperationOutcome(error).issue ?? []) {
        const target = issue.expression?.map((path) => secretIssueTarget(rows, path)).find(Boolean);
        const text = issue.details?.text ?? issue.diagnostics ?? 'Invalid';
        if (target) byRow[target.key] = { ...byRow[target.key], [target.field]: text };
        else rest.push(text);
      }
      const general =
        rest.length > 0 ? rest.join('; ') : Object.keys(byRow).length ? undefined : normalizeErrorString(error);
      return { problems: byRow, general };
    },
  });
  const { rows, problems, general, saved, busy, change } = editor;

  return (
    <section aria-labelledby="admin-secrets-title">
      <Typography id="admin-secrets-title" variant="h6" component="h2">
        Project secrets
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        Bots read them as <code>event.secrets.NAME</code>. Values stay masked until you focus them.
      </Typography>
      {project.error && <Alert severity="error">{project.error.message}</Alert>}
      {rows && (
        <Box component="form" onSubmit={editor.save} noValidate aria-label="Project secrets">
          <Stack spacing={1.5}>
            {general && <Alert severity="error">{general}</Alert>}
            {saved && (
              <Alert severity="success" role="status">
                {saved}
              </Alert>
            )}
            {rows.length === 0 && <Typography color="text.secondary">No secrets yet.</Typography>}
            {rows.map((row, index) => (
              <Stack key={row.key} direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems="flex-start">
                <TextField
                  size="small"
                  label={`Secret ${index + 1} name`}
                  value={row.name}
                  onChange={(event) => change(row.key, { name: event.target.value })}
                  error={problems[row.key]?.name !== undefined}
                  helperText={problems[row.key]?.name}
                  // Names are long (DOSESPOT_SUBSCRIPTION_KEY): the widest share of the row, the
                  // type a fixed narrow one, so a name is readable at a 1024 px window.
                  sx={{ flex: 3, minWidth: 200 }}
                />
                <TextField
                  size="small"
                  select
                  label="Type"
                  value={row.field}
                  onChange={(event) => change(row.key, { field: event.target.value as SecretRow['field'] })}
                  sx={{ width: 130, flexShrink: 0 }}
                >
                  {Object.entries(typeLabels).map(([field, label]) => (
                    <MenuItem key={field} value={field}>
                      {label}
                    </MenuItem>
                  ))}
                </TextField>
                <MaskedSecretField
                  size="small"
                  label={`Secret ${index + 1} value`}
                  value={row.value}
                  onChange={(event) => change(row.key, { value: event.target.value })}
                  error={problems[row.key]?.value !== undefined}
                  helperText={problems[row.key]?.value}
                  sx={{ flex: 2, minWidth: 160 }}
                />
                <IconButton
                  aria-label={`Remove secret ${row.name || index + 1}`}
                  onClick={() => editor.remove(row.key)}
                >
                  <DeleteIcon />
                </IconButton>
              </Stack>
            ))}
            <Stack direction="row" spacing={1}>
              <Button startIcon={<AddIcon />} onClick={() => editor.add(newSecretRow())}>
                Add secret
              </Button>
              <Button type="submit" variant="contained" disabled={busy}>
                Save secrets
              </Button>
            </Stack>
          </Stack>
        </Box>
      )}
    </section>
  );
}
