import { Typography } from '@mui/material';
import type { Reference } from '@medplum/fhirtypes';
import { ChatPanel } from '../ChatPanel';

/** The patient's own conversation with the clinic; they write as themselves. */
export function PatientMessages({ patient }: { patient: Reference }) {
  const patientId = (patient.reference ?? '').replace(/^Patient\//, '');
  return (
    <>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        Messages with your care team
      </Typography>
      <ChatPanel
        title={patient.display ?? 'My messages'}
        patientId={patientId}
        sender={patient}
        allowAttachments={false}
      />
    </>
  );
}
