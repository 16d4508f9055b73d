import { useId, useRef, useState } from 'react';
import { Box, Button, IconButton, Stack, TextField, Tooltip, Typography } from '@mui/material';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import SendIcon from '@mui/icons-material/Send';
import { useToastKeepClear } from '../../src/shell/toasts';
import { useMessageDraft } from './useMessageDraft';

export const INPUT_PLACEHOLDER = 'Type a message...';
export const REPLIES_DISABLED = 'Replies are disabled';
export const DRAFT_KEPT = 'Your unsent text is kept below; it was not sent.';

interface ChatInputProps {
  disabled?: boolean;
  /** Why nothing can be sent here; shown beside the box, which it also disables. */
  disabledReason?: string;
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
 * and so does leaving the conversation before sending. A box closed for a stated reason still shows
 * the draft it holds, untouched, so nothing typed is lost if the conversation opens again.
 */
export function ChatInput({ disabled: disabledProp, disabledReason, onSend, onAttach, draftKey }: ChatInputProps) {
  const disabled = disabledProp || Boolean(disabledReason);
  const reasonId = useId();
  const [text, setText] = useMessageDraft(draftKey);
  const [sending, setSending] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  // Toasts stand bottom-right, where Send is: while the box is on screen they stand above it.
  const composer = useRef<HTMLDivElement>(null);
  useToastKeepClear(composer);
  // What the box holds now, read when a send ends: the clinician may have typed on meanwhile.
  const current = useRef(text);
  current.current = text;
  const submit = async () => {
    if (disabled || sending || !text.trim()) return;
    const sent = text;
    setSending(true);
    try {
      if (await onSend(sent)) {
        setText(remainingAfterSend(current.current, sent));
        // Send is disabled while the message goes out, which drops the focus a click gave it: back to
        // the box, to write on. Focus the reader moved elsewhere meanwhile stays where they put it.
        const focused = document.activeElement;
        if (!focused || focused === document.body || composer.current?.contains(focused)) box.current?.focus();
      }
    } finally {
      setSending(false);
    }
  };
  return (
    <Box ref={composer} sx={{ p: 1.5, borderTop: 1, borderColor: 'divider' }}>
      {disabledReason && (
        <Typography
          id={reasonId}
          variant="body2"
          color="text.secondary"
          sx={{ mb: 1 }}
          data-testid="chat-closed-reason"
        >
          {disabledReason}
          {text && ` ${DRAFT_KEPT}`}
        </Typography>
      )}
      <Stack
        component="form"
        direction="row"
        spacing={1}
        alignItems="flex-end"
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
          inputRef={box}
          slotProps={{
            htmlInput: {
              'aria-label': disabled ? REPLIES_DISABLED : 'Message',
              'aria-describedby': disabledReason ? reasonId : undefined,
            },
          }}
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
    </Box>
  );
}
