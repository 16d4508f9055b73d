import { useRef, useState } from 'react';
import { Button, IconButton, Stack, TextField, Tooltip } from '@mui/material';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import SendIcon from '@mui/icons-material/Send';
import { useMessageDraft } from './useMessageDraft';

export const INPUT_PLACEHOLDER = 'Type a message...';
export const REPLIES_DISABLED = 'Replies are disabled';

interface ChatInputProps {
  disabled?: boolean;
  /** Sends the text; resolves true when it was sent (the input is then cleared), false to keep it. */
  onSend(text: string): Promise<boolean>;
  /** When given, a paperclip button lets the user send a file. */
  onAttach?(file: File): void;
  /** Keeps the unsent text under this key (the conversation) until it is sent. */
  draftKey?: string;
}

/**
 * What stays in the box once `sent` went out: nothing, or what was typed after it while it was
 * being sent; if the sent text itself was changed meanwhile, all of it (nothing typed is lost).
 */
export function remainingAfterSend(now: string, sent: string): string {
  if (now === sent) return '';
  return now.startsWith(sent) ? now.slice(sent.length).replace(/^\s+/, '') : now;
}

/**
 * The message box with Send (Enter sends, Shift+Enter adds a line). A failed send keeps the text,
 * and so does leaving the conversation before sending.
 */
export function ChatInput({ disabled, onSend, onAttach, draftKey }: ChatInputProps) {
  const [text, setText] = useMessageDraft(draftKey);
  const [sending, setSending] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  // What the box holds now, read when a send ends: the clinician may have typed on meanwhile.
  const current = useRef(text);
  current.current = text;
  const submit = async () => {
    if (disabled || sending || !text.trim()) return;
    const sent = text;
    setSending(true);
    try {
      if (await onSend(sent)) setText(remainingAfterSend(current.current, sent));
    } finally {
      setSending(false);
    }
  };
  return (
    <Stack
      component="form"
      direction="row"
      spacing={1}
      alignItems="flex-end"
      sx={{ p: 1.5, borderTop: 1, borderColor: 'divider' }}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {onAttach && (
        <>
          <input
            ref={fileInput}
            type="file"
            hidden
            data-testid="chat-attach-input"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) onAttach(file);
            }}
          />
          <Tooltip title="Attach a file">
            <span>
              <IconButton aria-label="Attach a file" disabled={disabled} onClick={() => fileInput.current?.click()}>
                <AttachFileIcon />
              </IconButton>
            </span>
          </Tooltip>
        </>
      )}
      <TextField
        fullWidth
        multiline
        maxRows={4}
        size="small"
        placeholder={disabled ? REPLIES_DISABLED : INPUT_PLACEHOLDER}
        slotProps={{ htmlInput: { 'aria-label': disabled ? REPLIES_DISABLED : 'Message' } }}
        value={text}
        disabled={disabled}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey) {
            event.preventDefault();
            void submit();
          }
        }}
      />
      <Button type="submit" variant="contained" endIcon={<SendIcon />} disabled={disabled || sending || !text.trim()}>
        Send
      </Button>
    </Stack>
  );
}
