import { MenuItem, TextField } from '@mui/material';
import type { AccessPolicy } from '@medplum/fhirtypes';
import { chosenPolicyHint, fullAccess, type NoPolicyAccess } from './accessLabels';

interface AccessPolicySelectProps {
  /** `AccessPolicy/{id}`, or '' for none. */
  value: string;
  onChange(value: string): void;
  policies: readonly AccessPolicy[];
  error?: string;
  /** The stored policy's name when it is not among `policies` (deleted, or another page of them). */
  missingLabel?: string;
  /** What applies without a policy (a patient gets the default patient access, not the whole project). */
  noPolicy?: NoPolicyAccess;
}

/**
 * The access policy of a membership or an invitation: none (the whole project, or for a patient the
 * default patient access) or one of the project's; the hint says what the choice means.
 */
export function AccessPolicySelect({
  value,
  onChange,
  policies,
  error,
  missingLabel,
  noPolicy = fullAccess,
}: AccessPolicySelectProps) {
  const chosen = policies.find((policy) => `AccessPolicy/${policy.id}` === value);
  const listed = chosen !== undefined;
  const hint = value ? chosenPolicyHint(chosen?.name ?? missingLabel) : noPolicy.hint;
  return (
    <TextField
      select
      label="Access policy"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error !== undefined}
      helperText={error ?? hint}
      // "No policy" is a choice with a meaning (full access, or a patient's default access): shown
      // in the closed field like any other, not as an empty field.
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    >
      <MenuItem value="">{noPolicy.label}</MenuItem>
      {value && !listed && <MenuItem value={value}>{missingLabel ?? value}</MenuItem>}
      {policies.map((policy) => (
        <MenuItem key={policy.id} value={`AccessPolicy/${policy.id}`}>
          {policy.name ?? `AccessPolicy/${policy.id}`}
        </MenuItem>
      ))}
    </TextField>
  );
}
