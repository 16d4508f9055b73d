import { Alert, Box, CircularProgress } from '@mui/material';
import { useParams } from 'react-router-dom';
import { formatHumanName } from '../../data-provider/formatting';
import { useSession } from '../../src/shell';
import { ChatPanel } from './ChatPanel';
import { isDeceased } from '../../data-provider/rules';
import { deceasedMessaging, STAFF_CLOSED_BELOW_DEATH_NOTICE } from './deceasedMessaging';
import { MessagingClosedNotice } from './MessagingClosedNotice';
import { useChatPatient } from './useChatPatient';

export const PROVIDER_NOT_FOUND = 'Error: Provider profile not found';

export interface PatientChatPageProps {
  /**
   * The page around the chat already says, above it, that the patient died (the chart's notice):
   * the chat then adds no banner of its own, and its closed box says why in one short line.
   */
  deathShownAbove?: boolean;
}

/**
 * Chat with a patient (app-spec §2.2): `/Patient/:patientId/communication[/:communicationId]` and
 * `/communication/:id`. Staff write as their Practitioner profile; anyone else is told so. A patient
 * who has died gets no new messages: the page says so at the top (unless the chart around it already
 * does), and the box says why it is closed.
 */
export function PatientChatPage({ deathShownAbove = false }: PatientChatPageProps) {
  const params = useParams();
  const session = useSession();
  const chat = useChatPatient(params.patientId, params.communicationId ?? params.id);
  const profile = session.profile;
  if (profile && profile.resourceType !== 'Practitioner') {
    return (
      <Alert severity="error" sx={{ m: 2 }}>
        {PROVIDER_NOT_FOUND}
      </Alert>
    );
  }
  if (chat.error) {
    return (
      <Alert severity="error" sx={{ m: 2 }}>
        {chat.error}
      </Alert>
    );
  }
  if (chat.loading || !chat.patientId || !profile) return <CircularProgress aria-label="Loading..." sx={{ m: 2 }} />;
  const sender = {
    reference: `Practitioner/${profile.id}`,
    display: formatHumanName(profile.name?.[0], { prefix: true }) || session.membership?.profile?.display,
  };
  const closed = deceasedMessaging(chat.vitalStatus, 'staff');
  return (
    <Box sx={{ p: 2, maxWidth: 900 }}>
      <ChatPanel
        title={chat.name ?? ''}
        patientId={chat.patientId}
        sender={sender}
        notice={closed && !deathShownAbove && <MessagingClosedNotice closed={closed} tone="warning" />}
        closedReason={closed && (deathShownAbove ? STAFF_CLOSED_BELOW_DEATH_NOTICE : closed.reason)}
        stillOpen={async () => !isDeceased(await chat.recheck())}
      />
    </Box>
  );
}
