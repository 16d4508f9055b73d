import { useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  MenuItem,
  Radio,
  RadioGroup,
  Stack,
  TextField,
} from '@mui/material';
import type { Reference } from '@medplum/fhirtypes';
import { ReferenceInput } from '../../src/datatypes/ReferenceInput';
import { fieldErrors } from '../account/fieldErrors';
import { noPolicyAccess } from './accessLabels';
import { AccessPolicySelect } from './AccessPolicySelect';
import {
  chartDetails,
  emptyInvite,
  inviteOutcome,
  inviteProblems,
  inviteRequestOf,
  linksExistingChart,
  withChartDetails,
  type ChartDetails,
  type InviteForm,
} from './inviteForm';
import { useAccessPolicies, useEmailDelivery, useProjectAdminActions, useProjectRecord } from './useProjectAdmin';

// `membership.profile` is the server's name for the chart picked (Medplum's invite body).
const serverFields = ['firstName', 'lastName', 'email', 'accessPolicy', 'resourceType', 'membership.profile'];
const patientProfile = ['http://hl7.org/fhir/StructureDefinition/Patient'];

/**
 * Invite (`POST /admin/projects/{id}/invite`): adds a person with a profile and membership; says
 * what happened to the e-mail, including when the server has no mail server to send it. A patient
 * is invited with a new chart, or onto the chart the clinic already has (picked with the app's
 * reference picker; its name and e-mail fill the fields left empty). A refused invitation keeps
 * what was typed, and so does a dialog closed by a click beside it or Escape (the caller keeps
 * this component mounted while `open` is false); Cancel discards it.
 */
export function InviteDialog({ open, onClose }: { open: boolean; onClose: (message?: string) => void }) {
  const actions = useProjectAdminActions();
  const policies = useAccessPolicies();
  const project = useProjectRecord();
  const delivery = useEmailDelivery().data?.email.delivery;
  const [form, setForm] = useState<InviteForm>(emptyInvite);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string>();
  const [busy, setBusy] = useState(false);
  // What the chart chosen last put into the fields, so choosing another replaces it, not what was typed.
  const [filled, setFilled] = useState<ChartDetails>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problems = inviteProblems(form);
    setErrors(problems as Record<string, string>);
    setGeneral(undefined);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    try {
      const membership = await actions.invite(inviteRequestOf(form));
      discard();
      onClose(inviteOutcome(form, delivery, membership));
    } catch (error) {
      const { byField, general: rest } = fieldErrors(error, serverFields);
      const { 'membership.profile': profile, ...others } = byField;
      setErrors(profile === undefined ? others : { ...others, profile });
      setGeneral(rest);
    } finally {
      setBusy(false);
    }
  };

  const discard = () => {
    setForm(emptyInvite);
    setErrors({});
    setGeneral(undefined);
    setFilled(undefined);
  };

  const chooseChart = (profile: Reference | undefined) => {
    setForm((current) => ({ ...current, profile }));
    setErrors(({ profile: _refused, ...rest }) => rest);
    const id = profile?.reference?.split('/')[1];
    if (!id) return;
    // The picker's value is a Reference: the chart itself is read for its name and e-mail. Should
    // the read fail, the fields stay for the admin to fill in.
    actions
      .readPatient(id)
      .then((patient) => {
        const details = chartDetails(patient);
        setForm((current) =>
          current.profile?.reference === profile?.reference ? withChartDetails(current, details, filled) : current,
        );
        setFilled(details);
      })
      .catch(() => undefined);
  };

  const text = (field: 'firstName' | 'lastName' | 'email', label: string, type = 'text') => (
    <TextField
      label={label}
      type={type}
      required
      value={form[field]}
      onChange={(event) => setForm({ ...form, [field]: event.target.value })}
      error={errors[field] !== undefined}
      helperText={errors[field]}
    />
  );

  return (
    <Dialog open={open} onClose={() => onClose()} fullWidth maxWidth="sm" aria-labelledby="invite-dialog-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="invite-dialog-title">Invite a person</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {general && <Alert severity="error">{general}</Alert>}
            <TextField
              select
              label="Role"
              value={form.resourceType}
              onChange={(event) => setForm({ ...form, resourceType: event.target.value as InviteForm['resourceType'] })}
              helperText={
                form.resourceType === 'Patient'
                  ? 'In the patient portal they see their own chart'
                  : 'The profile made for them'
              }
            >
              <MenuItem value="Practitioner">Practitioner (staff)</MenuItem>
              <MenuItem value="Patient">Patient</MenuItem>
              <MenuItem value="RelatedPerson">Related person</MenuItem>
            </TextField>
            {form.resourceType === 'Patient' && (
              <FormControl>
                <FormLabel id="invite-chart-label">Chart</FormLabel>
                <RadioGroup
                  row
                  aria-labelledby="invite-chart-label"
                  aria-describedby="invite-chart-help"
                  value={form.chart}
                  onChange={(event) => setForm({ ...form, chart: event.target.value as InviteForm['chart'] })}
                >
                  <FormControlLabel value="new" control={<Radio />} label="New patient" />
                  <FormControlLabel value="existing" control={<Radio />} label="Existing patient" />
                </RadioGroup>
                <FormHelperText id="invite-chart-help">
                  {form.chart === 'existing'
                    ? "Their portal shows this chart. The chart's name is kept; the e-mail is added to it if it is not there."
                    : 'A new chart is made for them'}
                </FormHelperText>
              </FormControl>
            )}
            {linksExistingChart(form) && (
              <ReferenceInput
                label="Patient"
                path="ProjectMembership.profile"
                targetProfiles={patientProfile}
                value={form.profile}
                onChange={chooseChart}
                required
                error={errors.profile}
              />
            )}
            {text('firstName', 'First name')}
            {text('lastName', 'Last name')}
            {text('email', 'Email', 'email')}
            <AccessPolicySelect
              value={form.accessPolicy}
              onChange={(accessPolicy) => setForm({ ...form, accessPolicy })}
              policies={policies.data ?? []}
              error={errors.accessPolicy}
              noPolicy={noPolicyAccess(form.resourceType, project.data, policies.data)}
            />
            <div>
              <FormControlLabel
                control={
                  <Checkbox
                    checked={form.admin}
                    onChange={(event) => setForm({ ...form, admin: event.target.checked })}
                  />
                }
                label="Project admin"
              />
              <FormControlLabel
                control={
                  <Checkbox
                    checked={form.sendEmail}
                    onChange={(event) => setForm({ ...form, sendEmail: event.target.checked })}
                  />
                }
                label="Send an invitation e-mail"
              />
            </div>
            {delivery === 'outbox' && form.sendEmail && (
              <Alert severity="warning">
                This server has no mail server (SMTP_URL is not set): invitation e-mails are written to its outbox
                folder and nobody receives them.
              </Alert>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button
            onClick={() => {
              discard();
              onClose();
            }}
          >
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            Invite
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
