import { Alert, CircularProgress, Typography } from '@mui/material';
import type { Reference } from '@medplum/fhirtypes';
import { ChatPanel } from '../ChatPanel';
import { isDeceased } from '../../../data-provider/rules';
import { careTeamName } from '../chatMessages';
import { deceasedMessaging } from '../deceasedMessaging';
import { MessagingClosedNotice } from '../MessagingClosedNotice';
import { useChatPatient } from '../useChatPatient';
import { useSession } from '../../../src/shell';

/**
 * The patient's own conversation with the clinic; they write as themselves. Their record is read
 * first: an account whose patient is recorded as deceased can read its history but send nothing
 * (deceasedMessaging.ts says why the wording never mentions death).
 */
export function PatientMessages({ patient }: { patient: Reference }) {
  const patientId = (patient.reference ?? '').replace(/^Patient\//, '');
  const record = useChatPatient(patientId, undefined);
  const closed = deceasedMessaging(record.vitalStatus, 'patient');
  // The patient writes to the clinic, not to themselves: the panel is named after who reads it.
  const clinic = useSession().project?.name;
  const careTeam = careTeamName(clinic);
  return (
    <>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        Messages with your care team
      </Typography>
      {record.error ? (
        <Alert severity="error">{record.error}</Alert>
      ) : record.loading ? (
        <CircularProgress aria-label="Loading..." />
      ) : (
        <ChatPanel
          title={careTeam}
          careTeamName={careTeam}
          patientId={patientId}
          sender={patient}
          allowAttachments={false}
          notice={closed && <MessagingClosedNotice closed={closed} tone="info" />}
          closedReason={closed?.reason}
          stillOpen={async () => !isDeceased(await record.recheck())}
        />
      )}
    </>
  );
}
