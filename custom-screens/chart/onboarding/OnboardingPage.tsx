import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  CircularProgress,
  Grid,
  Link,
  MenuItem,
  Paper,
  TextField,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import type { OperationOutcomeIssue, Patient } from '@medplum/fhirtypes';
import { ETHNICITY_OPTIONS, GENDER_OPTIONS, RACE_OPTIONS } from '../../../config/clinical/patientDemographics';
import { US_CORE_PATIENT_PROFILE } from '../../../config/clinical/profileUrls';
import { OperationOutcomeError } from '../../../data-provider/outcomes';
import { localDay } from '../../../data-provider/rules';
import { validateResource } from '../../../schema-engine';
import { useTypeSchema } from '../../../src/resources/schemaHooks';
import { schemaLoaderFor } from '../../../src/resources/typeSchema';
import { useFhirClient } from '../../../src/resources/useFhirClient';
import { useToast } from '../../../src/shell/toasts';
import { PatientProfileProblem } from '../PatientEditTab';
import {
  draftErrors,
  draftToPatient,
  EMPTY_DRAFT,
  fieldOfIssuePath,
  type DraftField,
  type NewPatientDraft,
} from './newPatient';
import { duplicateMrnMessage, isRegisteredAsSent, mrnCondition, mrnSearch } from './duplicateMrn';
import { onboardingDraftKey } from './onboardingDraftKey';
import {
  duplicateCheckKey,
  possibleDuplicateLine,
  possibleDuplicateSearch,
  sameNameAndBirthDate,
} from './possibleDuplicate';

function loadDraft(key: string | undefined): NewPatientDraft {
  try {
    const saved = key ? window.sessionStorage.getItem(key) : null;
    return saved ? { ...EMPTY_DRAFT, ...(JSON.parse(saved) as Partial<NewPatientDraft>) } : EMPTY_DRAFT;
  } catch {
    return EMPTY_DRAFT;
  }
}

function saveDraft(key: string | undefined, draft: NewPatientDraft | undefined): void {
  if (!key) return;
  try {
    if (draft) window.sessionStorage.setItem(key, JSON.stringify(draft));
    else window.sessionStorage.removeItem(key);
  } catch {
    // Without session storage the draft lives only in the page.
  }
}

function issuesByField(issues: OperationOutcomeIssue[], patient: Patient) {
  const fields: Partial<Record<DraftField, string>> = {};
  const general: string[] = [];
  for (const issue of issues) {
    const text = issue.details?.text ?? issue.diagnostics ?? issue.code;
    const field = fieldOfIssuePath(issue.expression?.[0] ?? '', patient);
    if (field && !fields[field]) fields[field] = text;
    else general.push(text);
  }
  return { fields, general };
}

/**
 * `/onboarding`: a new patient as the front desk registers one (US Core fields), checked against
 * the US Core Patient profile, then the new chart. The draft survives a failed save and a reload.
 */
export function OnboardingPage() {
  const client = useFhirClient();
  const navigate = useNavigate();
  const toast = useToast();
  const queryClient = useQueryClient();
  const profile = useTypeSchema('Patient', US_CORE_PATIENT_PROFILE);
  const me = client.getProfile();
  const key = onboardingDraftKey(me ? `${me.resourceType}/${me.id}` : undefined);
  const [draft, setDraft] = useState<NewPatientDraft>(() => loadDraft(key));
  const [errors, setErrors] = useState<Partial<Record<DraftField, string>>>({});
  const [general, setGeneral] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  // Patients with the same name and birth date, named before a second chart is made for one person.
  const [duplicates, setDuplicates] = useState<Patient[]>([]);

  const change = (field: DraftField, value: string) => {
    const next = { ...draft, [field]: value };
    setDraft(next);
    saveDraft(key, next);
    setErrors((current) => ({ ...current, [field]: undefined }));
    setDuplicates([]);
  };

  /** `registerAnyway`: the duplicates named for this name and birth date were looked at, and this is someone else. */
  async function submit(event: FormEvent | undefined, registerAnyway?: string) {
    event?.preventDefault();
    setDuplicates([]);
    const local = draftErrors(draft, localDay());
    setErrors(local);
    setGeneral([]);
    if (Object.keys(local).length > 0 || !profile.data) return;
    const patient = draftToPatient(draft);
    setSaving(true);
    try {
      const issues = (await validateResource(patient, profile.data, { schemas: schemaLoaderFor(client) })).filter(
        (issue) => issue.severity === 'error' || issue.severity === 'fatal',
      );
      if (issues.length) throw new OperationOutcomeError({ resourceType: 'OperationOutcome', issue: issues });
      // A second chart under one MRN splits a patient's record: say who has it instead. The search
      // names them; the conditional create keeps a registration made meanwhile from doubling it.
      const existing = await client.searchOne('Patient', mrnSearch(draft.mrn));
      if (existing) {
        setErrors({ mrn: duplicateMrnMessage(draft.mrn, existing) });
        return;
      }
      const candidates = possibleDuplicateSearch(draft);
      if (candidates && registerAnyway !== duplicateCheckKey(draft)) {
        const same = sameNameAndBirthDate(draft, await client.searchResources('Patient', candidates));
        if (same.length > 0) {
          setDuplicates(same);
          return;
        }
      }
      const created = await client.createResourceIfNoneExist<Patient>(patient, mrnCondition(draft.mrn));
      if (!isRegisteredAsSent(created, patient)) {
        setErrors({ mrn: duplicateMrnMessage(draft.mrn, created) });
        return;
      }
      saveDraft(key, undefined);
      await queryClient.invalidateQueries({ queryKey: ['hearth-search', 'Patient'] });
      toast.success('Success');
      navigate(`/Patient/${created.id}`);
    } catch (error) {
      if (error instanceof OperationOutcomeError) {
        const mapped = issuesByField(error.outcome.issue ?? [], patient);
        setErrors(mapped.fields);
        setGeneral(mapped.general);
      } else {
        setGeneral([(error as Error).message]);
      }
      toast.error(error, { persist: true });
    } finally {
      setSaving(false);
    }
  }

  const text = (field: DraftField, label: string, props: Record<string, unknown> = {}) => (
    <TextField
      fullWidth
      size="small"
      id={`onboarding-${field}`}
      label={label}
      value={draft[field]}
      onChange={(event) => change(field, event.target.value)}
      error={!!errors[field]}
      helperText={errors[field] ?? ' '}
      {...props}
    />
  );
  const select = (
    field: DraftField,
    label: string,
    options: readonly { code: string; display: string }[],
    required = false,
  ) => (
    <TextField
      select
      fullWidth
      size="small"
      id={`onboarding-${field}`}
      label={label}
      required={required}
      value={draft[field]}
      onChange={(event) => change(field, event.target.value)}
      error={!!errors[field]}
      helperText={errors[field] ?? ' '}
    >
      {!required && (
        <MenuItem value="">
          <em>Not given</em>
        </MenuItem>
      )}
      {options.map((option) => (
        <MenuItem key={option.code} value={option.code}>
          {option.display}
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 900 }}>
      <Typography variant="h5" component="h1" gutterBottom>
        New patient
      </Typography>
      {profile.error && <PatientProfileProblem error={profile.error} />}
      {profile.isPending && <CircularProgress aria-label="Loading..." />}
      {profile.data && (
        <Paper variant="outlined" component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ p: 2 }}>
          {general.length > 0 && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {general.map((line) => (
                <div key={line}>{line}</div>
              ))}
            </Alert>
          )}
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700, mb: 1 }}>
            Who
          </Typography>
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, sm: 6 }}>{text('given', 'Given name(s)', { required: true, autoFocus: true })}</Grid>
            <Grid size={{ xs: 12, sm: 6 }}>{text('family', 'Family name', { required: true })}</Grid>
            <Grid size={{ xs: 12, sm: 4 }}>
              {text('birthDate', 'Birth date', { type: 'date', slotProps: { inputLabel: { shrink: true } } })}
            </Grid>
            <Grid size={{ xs: 12, sm: 4 }}>{select('gender', 'Gender', GENDER_OPTIONS, true)}</Grid>
            <Grid size={{ xs: 12, sm: 4 }}>{text('mrn', 'Medical record number', { required: true })}</Grid>
            <Grid size={{ xs: 12, sm: 6 }}>{select('race', 'Race', RACE_OPTIONS)}</Grid>
            <Grid size={{ xs: 12, sm: 6 }}>{select('ethnicity', 'Ethnicity', ETHNICITY_OPTIONS)}</Grid>
          </Grid>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700, my: 1 }}>
            Contact
          </Typography>
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, sm: 6 }}>{text('phone', 'Phone', { type: 'tel', autoComplete: 'off' })}</Grid>
            <Grid size={{ xs: 12, sm: 6 }}>{text('email', 'Email', { type: 'email', autoComplete: 'off' })}</Grid>
            <Grid size={12}>{text('line', 'Street address')}</Grid>
            <Grid size={{ xs: 12, sm: 5 }}>{text('city', 'City')}</Grid>
            <Grid size={{ xs: 6, sm: 3 }}>{text('state', 'State')}</Grid>
            <Grid size={{ xs: 6, sm: 4 }}>{text('postalCode', 'Postal code')}</Grid>
          </Grid>
          {duplicates.length > 0 && (
            <Alert severity="warning" sx={{ mt: 1 }} data-testid="possible-duplicate">
              <AlertTitle>Possible duplicate</AlertTitle>
              Already registered with this name and birth date:
              <Box component="ul" sx={{ my: 0.5, pl: 2.5 }}>
                {duplicates.map((patient) => (
                  <li key={patient.id}>
                    {possibleDuplicateLine(patient)} —{' '}
                    <Link component={RouterLink} to={`/Patient/${patient.id}`}>
                      Open chart
                    </Link>
                  </li>
                ))}
              </Box>
              <Button
                size="small"
                variant="outlined"
                color="warning"
                disabled={saving}
                onClick={() => void submit(undefined, duplicateCheckKey(draft))}
              >
                Register anyway
              </Button>
            </Alert>
          )}
          <Box sx={{ display: 'flex', gap: 1, mt: 1 }}>
            <Button type="submit" variant="contained" disabled={saving}>
              {saving ? 'Saving…' : 'Create patient'}
            </Button>
            <Button
              onClick={() => {
                saveDraft(key, undefined);
                setDraft(EMPTY_DRAFT);
                setErrors({});
                setGeneral([]);
                setDuplicates([]);
              }}
              disabled={saving}
            >
              Clear
            </Button>
          </Box>
        </Paper>
      )}
    </Box>
  );
}
