import { MenuItem, TextField } from '@mui/material';
import type { AccessPolicy } from '@medplum/fhirtypes';

interface AccessPolicySelectProps {
  /** `AccessPolicy/{id}`, or '' for none. */
  value: string;
  onChange(value: string): void;
  policies: readonly AccessPolicy[];
  error?: string;
  /** The stored policy's name when it is not among `policies` (deleted, or another page of them). */
  missingLabel?: string;
}

/** The access policy of a membership or an invitation: none (the whole project) or one of the project's. */
export function AccessPolicySelect({ value, onChange, policies, error, missingLabel }: AccessPolicySelectProps) {
  const listed = policies.some((policy) => `AccessPolicy/${policy.id}` === value);
  return (
    <TextField
      select
      label="Access policy"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error !== undefined}
      helperText={error ?? 'None: the whole project'}
    >
      <MenuItem value="">None (full access)</MenuItem>
      {value && !listed && <MenuItem value={value}>{missingLabel ?? value}</MenuItem>}
      {policies.map((policy) => (
        <MenuItem key={policy.id} value={`AccessPolicy/${policy.id}`}>
          {policy.name ?? `AccessPolicy/${policy.id}`}
        </MenuItem>
      ))}
    </TextField>
  );
}
