import { useState } from 'react';
import { Autocomplete, TextField } from '@mui/material';
import type { LaunchPatientOption } from '../../../data-provider/client';
import { formatDate } from '../../../data-provider/formatting';
import { patientLookupHint } from '../../../data-provider/search';
import { useLaunchPatientSearch } from '../useLaunchPatientSearch';
import type { SignInFlow } from '../useSignIn';

export function launchPatientLabel(patient: LaunchPatientOption): string {
  const born = patient.birthDate ? `born ${formatDate(patient.birthDate)}` : undefined;
  return [patient.name, born, patient.gender].filter(Boolean).join(' · ');
}

/**
 * "Patient" in the consent step of a clinician's standalone SMART launch: search by name, birth date
 * or record number among the patients the person may open, and choose the one the app is about.
 */
export function LaunchPatientField({
  flow,
  value,
  onChange,
  error,
}: {
  flow: SignInFlow;
  value: LaunchPatientOption | null;
  onChange: (patient: LaunchPatientOption | null) => void;
  /** A message under the field (nothing chosen, or the server refused the choice). */
  error?: string;
}) {
  const [text, setText] = useState('');
  const search = useLaunchPatientSearch(flow, text);
  return (
    <Autocomplete<LaunchPatientOption>
      options={search.options}
      value={value}
      onChange={(_event, patient) => onChange(patient)}
      inputValue={text}
      onInputChange={(_event, next) => setText(next)}
      // The server searched already (name, birth date or record number): show its answer as it is.
      filterOptions={(options) => options}
      getOptionLabel={launchPatientLabel}
      isOptionEqualToValue={(option, chosen) => option.id === chosen.id}
      loading={search.loading}
      noOptionsText={search.error ?? 'No patient you may open matches this'}
      renderInput={(params) => (
        <TextField
          {...params}
          label="Patient"
          required
          error={!!error}
          // The hint sits under the field: it stays visible while typing and is never cut off.
          helperText={error ?? patientLookupHint}
        />
      )}
    />
  );
}
