import { useEffect, useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormHelperText,
  Stack,
  TextField,
} from '@mui/material';
import type { ProjectMembership } from '@medplum/fhirtypes';
import { awaitingAddressOwnerText, lastAdminMessage, removesLastAdmin } from '../../data-provider/rules';
import { normalizeErrorString } from '../../data-provider/outcomes';
import { fieldErrors } from '../account/fieldErrors';
import { noPolicyAccess, type NoPolicyAccess } from './accessLabels';
import { AccessPolicySelect } from './AccessPolicySelect';
import type { MemberRow } from './memberRows';
import { memberField, memberFormOf, memberFormProblems, membershipOf, type MemberForm } from './memberForm';
import { useAccessPolicies, useProjectAdminActions, useProjectRecord } from './useProjectAdmin';

const serverFields = ['ProjectMembership.accessPolicy', 'ProjectMembership.admin', 'ProjectMembership.profile'];

/**
 * Edits one membership (`GET`/`POST`/`DELETE /admin/projects/{id}/members/{membershipId}`):
 * access policy, admin flag, profile, active; or removes it. The last admin cannot be demoted or
 * removed (the server refuses it too). A refused save keeps what was chosen, and so does a dialog
 * closed by a click beside it or Escape (`onHide`: the caller keeps this component mounted, per
 * member, while `open` is false). Cancel, a save or a removal end it (`onClose`: the caller
 * unmounts it), so that the next opening reads the membership afresh instead of a stale copy.
 */
export function MemberDialog({
  member,
  members,
  open,
  onHide,
  onClose,
}: {
  member: MemberRow;
  members: readonly MemberRow[];
  open: boolean;
  onHide: () => void;
  onClose: (message?: string) => void;
}) {
  const actions = useProjectAdminActions();
  const policies = useAccessPolicies();
  const project = useProjectRecord();
  const [stored, setStored] = useState<ProjectMembership>();
  const [form, setForm] = useState<MemberForm>();
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [general, setGeneral] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [confirmRemove, setConfirmRemove] = useState(false);

  useEffect(() => {
    let live = true;
    actions.readMember(member.id).then(
      (membership) => {
        if (!live) return;
        setStored(membership);
        setForm(memberFormOf(membership));
      },
      (error: unknown) => live && setGeneral(normalizeErrorString(error)),
    );
    return () => {
      live = false;
    };
  }, [actions, member.id]);

  const seats = members.map((row) => ({ id: row.id, admin: row.admin, active: row.active, user: row.user }));
  const isLastAdmin = removesLastAdmin(seats, member.id, 'removed');
  const demotes =
    form !== undefined &&
    removesLastAdmin(seats, member.id, { id: member.id, admin: form.admin, active: form.active, user: member.user });

  // Without a policy: the whole project, a patient's default access, or the access entries kept.
  const entries = stored?.access?.length ?? 0;
  const noPolicy: NoPolicyAccess | undefined = !form
    ? undefined
    : entries > 0
      ? {
          label: 'None besides its access entries',
          hint: `None: the membership's ${entries === 1 ? 'access entry applies' : `${entries} access entries apply`} (edit them in the ProjectMembership record)`,
        }
      : noPolicyAccess(form.profile, project.data, policies.data);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!stored || !form) return;
    const problems = memberFormProblems(form, stored);
    setErrors(problems);
    setGeneral(undefined);
    if (Object.keys(problems).length > 0 || demotes) return;
    setBusy(true);
    try {
      const policy = policies.data?.find((choice) => `AccessPolicy/${choice.id}` === form.accessPolicy);
      await actions.saveMember(membershipOf(stored, form, policy?.name));
      onClose(`Saved ${member.profile}`);
    } catch (error) {
      const { byField, general: rest } = fieldErrors(error, serverFields);
      setErrors(Object.fromEntries(Object.entries(byField).map(([path, text]) => [memberField(path) ?? path, text])));
      setGeneral(rest);
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!confirmRemove) {
      setConfirmRemove(true);
      return;
    }
    setBusy(true);
    setGeneral(undefined);
    try {
      await actions.removeMember(member.id);
      onClose(`Removed ${member.profile}`);
    } catch (error) {
      setGeneral(normalizeErrorString(error));
    } finally {
      setBusy(false);
    }
  };

  const hide = () => {
    // A half-confirmed removal is not a choice to come back to: one click would then remove.
    setConfirmRemove(false);
    // Before the membership is read (or when reading it failed) there is nothing to keep, and
    // ending the dialog lets the next opening try the read again.
    if (form) onHide();
    else onClose();
  };

  return (
    <Dialog open={open} onClose={hide} fullWidth maxWidth="sm" aria-labelledby="member-dialog-title">
      <form onSubmit={save} noValidate>
        <DialogTitle id="member-dialog-title">Member: {member.profile}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {general && <Alert severity="error">{general}</Alert>}
            {confirmRemove && (
              <Alert severity="warning">
                Remove {member.profile} from the project? They can no longer sign in to it. Press Remove again to
                confirm.
              </Alert>
            )}
            {member.email && member.emailSource !== 'profile' && (
              <TextField label="E-mail" value={member.email} slotProps={{ htmlInput: { readOnly: true } }} />
            )}
            {(member.emailSource === 'profile' || member.emailSource === 'hidden') && (
              <TextField
                label={member.emailSource === 'profile' ? "E-mail (the profile's)" : 'E-mail'}
                value={member.email || 'Not visible'}
                helperText="The sign-in account is a server administrator's: its address is not visible to the project"
                slotProps={{ htmlInput: { readOnly: true } }}
              />
            )}
            {!form && !general && <Alert severity="info">Loading the membership...</Alert>}
            {form && (
              <>
                <TextField
                  label="Profile"
                  value={form.profile}
                  onChange={(event) => setForm({ ...form, profile: event.target.value })}
                  error={errors.profile !== undefined}
                  helperText={errors.profile ?? 'Who the member acts as, e.g. Practitioner/123'}
                />
                <AccessPolicySelect
                  value={form.accessPolicy}
                  onChange={(accessPolicy) => setForm({ ...form, accessPolicy })}
                  policies={policies.data ?? []}
                  error={errors.accessPolicy}
                  missingLabel={member.accessPolicy}
                  noPolicy={noPolicy}
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
                        checked={form.active}
                        // The server opens it once the address owner is known; no admin's edit can.
                        disabled={member.awaitingOwner}
                        onChange={(event) => setForm({ ...form, active: event.target.checked })}
                      />
                    }
                    label="Active (may sign in)"
                  />
                  {member.awaitingOwner && <FormHelperText>{awaitingAddressOwnerText}</FormHelperText>}
                  {(errors.admin ?? demotes) && (
                    <FormHelperText error>{errors.admin ?? lastAdminMessage}</FormHelperText>
                  )}
                </div>
              </>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button
            color="error"
            onClick={remove}
            disabled={busy || isLastAdmin || !stored}
            title={isLastAdmin ? lastAdminMessage : undefined}
            sx={{ mr: 'auto' }}
          >
            {confirmRemove ? 'Remove' : 'Remove from project'}
          </Button>
          <Button onClick={() => onClose()}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={busy || !form}>
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
