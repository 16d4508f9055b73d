import type { ReactNode } from 'react';
import { Alert, Box, CircularProgress, Paper, Typography } from '@mui/material';
import type { Reference } from '@medplum/fhirtypes';
import { normalizeErrorString } from '../../data-provider/outcomes';
import { useShellClient, useToast } from '../../src/shell';
import { mayUploadMedia, UploadNotice, useMediaUpload } from './attachments';
import { ChatInput } from './ChatInput';
import { MessageList } from './MessageList';
import { replyRecipient, type SenderNameContext } from './chatMessages';
import { CHAT_POLL_MS, useConversation } from './useConversation';
import { useSenderNames } from './useSenderNames';

/** Said quietly: the chat still works, only less promptly. */
export const POLLED_CHAT_NOTICE = `Live updates are not available: new messages are checked every ${CHAT_POLL_MS / 1000} seconds.`;

/** The chat panel's height (app-spec §9). */
export const CHAT_PANEL_HEIGHT = 600;

interface ChatPanelProps {
  title: string;
  patientId: string;
  /** The signed-in profile writing (undefined: replies are disabled). */
  sender: Reference | undefined;
  /** Offer the paperclip (staff). The patient portal does not: patients may not store Binaries. */
  allowAttachments?: boolean;
  /** Shown under the title, above the messages: what the reader must know before reading on. */
  notice?: ReactNode;
  /** Why no new message may go out (the history stays readable); undefined while messaging is open. */
  closedReason?: string;
  /**
   * Asked just before a message or file goes out; false stops it (the typed text stays). The page
   * re-reads what could have closed the conversation since it opened and shows the reason.
   */
  stillOpen?(): Promise<boolean>;
  /**
   * The patient's own conversation (the portal): what a clinic sender is called when her policy
   * does not let her read their record ("Demo Clinic care team").
   */
  careTeamName?: string;
}

/**
 * The live chat panel (app-spec §2.12): title, messages under time headers, the message box with
 * Send and a paperclip for files. A failed send keeps the typed text and shows a red "Error"
 * notification that stays until closed. A closed conversation stays readable, and its box says why
 * it takes nothing new.
 */
export function ChatPanel({
  title,
  patientId,
  sender,
  allowAttachments = true,
  notice,
  closedReason,
  stillOpen,
  careTeamName,
}: ChatPanelProps) {
  const toast = useToast();
  const client = useShellClient();
  const conversation = useConversation(patientId, sender);
  const canUpload = allowAttachments && mayUploadMedia(client.getAccessPolicy(), client.isSuperAdmin());
  const uploads = useMediaUpload();
  const patient = { reference: `Patient/${patientId}` };
  const recipient = () => replyRecipient(conversation.messages, sender, patient);
  const senderNames = useSenderNames(conversation.messages);
  const naming: SenderNameContext = {
    names: senderNames,
    patientReader: careTeamName ? { patient, careTeam: careTeamName } : undefined,
  };

  const mayGoOut = async () => !closedReason && (stillOpen ? await stillOpen() : true);

  const send = async (text: string): Promise<boolean> => {
    try {
      if (!(await mayGoOut())) return false;
      await conversation.send({ text, recipient: recipient() });
      return true;
    } catch (cause) {
      toast.error(`Error\n${normalizeErrorString(cause)}`, { persist: true });
      return false;
    }
  };

  const attach = async (file: File) => {
    try {
      if (!(await mayGoOut())) return;
      const uploaded = await uploads.upload({ file, subject: patient, operator: sender });
      if (!uploaded) return;
      await conversation.send({ text: '', attachment: uploaded.attachment, recipient: recipient() });
    } catch (cause) {
      toast.error(`Error\n${normalizeErrorString(cause)}`, { persist: true });
    }
  };

  return (
    <Paper
      variant="outlined"
      sx={{ height: CHAT_PANEL_HEIGHT, display: 'flex', flexDirection: 'column', overflow: 'hidden' }}
      aria-label={`Chat with ${title}`}
      component="section"
    >
      <Box sx={{ px: 2, py: 1.5, borderBottom: 1, borderColor: 'divider' }}>
        <Typography variant="h6" component="h2" sx={{ overflowWrap: 'anywhere' }}>
          {title}
        </Typography>
      </Box>
      {notice}
      {conversation.polled && (
        <Typography variant="caption" color="text.secondary" role="status" sx={{ px: 2, pt: 0.5 }}>
          {POLLED_CHAT_NOTICE}
        </Typography>
      )}
      {conversation.error && (
        <Alert severity="error" sx={{ m: 1 }}>
          {conversation.error}
        </Alert>
      )}
      {conversation.loading ? (
        <Box sx={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
          <CircularProgress aria-label="Loading..." />
        </Box>
      ) : (
        <MessageList messages={conversation.messages} profile={sender} patient={patient} naming={naming} />
      )}
      <ChatInput
        disabled={!sender}
        disabledReason={sender ? closedReason : undefined}
        onSend={send}
        draftKey={sender?.reference ? `${sender.reference}|Patient/${patientId}` : undefined}
        onAttach={sender && canUpload ? (file) => void attach(file) : undefined}
      />
      <UploadNotice state={uploads.state} onClose={uploads.dismiss} />
    </Paper>
  );
}
