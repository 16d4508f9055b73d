import { Alert, AlertTitle, Box, CircularProgress } from '@mui/material';
import type { Patient } from '@medplum/fhirtypes';
import { US_CORE_PATIENT_PROFILE } from '../../config/clinical/profileUrls';
import { STRUCTURE_DEFINITION_NOT_FOUND } from '../../schema-engine';
import { ResourceEditor } from '../../src/resources/ResourceEditor';
import { useTypeSchema } from '../../src/resources/schemaHooks';
import { useChartPatient } from './chartPatient';

export const MISSING_PATIENT_PROFILE = 'Could not find the US Core Patient Profile';
/** The toast of a saved patient edit (app-spec §8, "Success toasts"). */
export const PATIENT_EDIT_SUCCESS = 'Success';

/** The profile the patient forms validate against, or why it cannot be had (app-spec §2.2, §5). */
export function PatientProfileProblem({ error }: { error: Error }) {
  if (error.message === STRUCTURE_DEFINITION_NOT_FOUND) {
    return (
      <Alert severity="error">
        <AlertTitle>Not found</AlertTitle>
        {MISSING_PATIENT_PROFILE}
      </Alert>
    );
  }
  return <Alert severity="error">Server error: {error.message}</Alert>;
}

/** `/Patient/{id}/edit`: the patient's editor under the US Core Patient profile. */
export function PatientEditTab() {
  const patient = useChartPatient();
  const profile = useTypeSchema('Patient', US_CORE_PATIENT_PROFILE);
  if (profile.error) {
    return (
      <Box sx={{ p: 2 }}>
        <PatientProfileProblem error={profile.error} />
      </Box>
    );
  }
  if (!patient || !profile.data) return <CircularProgress aria-label="Loading..." sx={{ m: 2 }} />;
  const profiled: Patient = patient.meta?.profile?.includes(US_CORE_PATIENT_PROFILE)
    ? patient
    : { ...patient, meta: { ...patient.meta, profile: [US_CORE_PATIENT_PROFILE, ...(patient.meta?.profile ?? [])] } };
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      {/* Keyed by the patient, not the version: a newer version read meanwhile must not remount (and empty)
          a form being edited; the editor takes it itself while nothing was typed, else its save is refused. */}
      <ResourceEditor key={patient.id} resource={profiled} updatedMessage={PATIENT_EDIT_SUCCESS} />
    </Box>
  );
}
