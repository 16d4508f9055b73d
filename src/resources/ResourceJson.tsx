import { useLayoutEffect, useMemo, useRef, useState, type ClipboardEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Button, TextField } from '@mui/material';
import { useNotify } from 'react-admin';
import type { Resource } from '@medplum/fhirtypes';
import { OperationOutcomeError } from '../../data-provider/outcomes';
import { canPerformOnType } from './accessRules';
import { editConflictMessage, ifMatchOptions, isEditConflict } from './editConflict';
import { issueText } from './outcomeErrors';
import { jsonShapeProblem } from './jsonShape';
import { NO_CHANGES, sameJson } from './unsavedChanges';
import { UnsavedChangesGuard } from './UnsavedChangesGuard';
import { resourceQueryKey } from './useResource';
import { useFhirClient } from './useFhirClient';

/** Pastes this long are inserted by the page, not the browser's editing (see paste below). */
const LARGE_PASTE = 2000;

const asText = (resource: Resource): string => JSON.stringify(resource, null, 2);

/**
 * The JSON tab: the resource as JSON, editable and saved with the server's validation shown. The save
 * carries If-Match with the version the text was built from; leaving with an edited text asks first.
 */
export function ResourceJson(props: { resource: Resource }) {
  const client = useFhirClient();
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // The version the text was built from: a newer one read meanwhile replaces it only while the text is untouched.
  const [base, setBase] = useState(props.resource);
  const [text, setText] = useState(() => asText(props.resource));
  const baseText = useMemo(() => asText(base), [base]);
  if (props.resource !== base && props.resource.meta?.versionId !== base.meta?.versionId && text === baseText) {
    setBase(props.resource);
    setText(asText(props.resource));
  }
  const saved = useRef(false);
  const [errors, setErrors] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const editable = canPerformOnType(
    client.getAccessPolicy(),
    client.isSuperAdmin(),
    props.resource.resourceType,
    'update',
  );
  const textarea = useRef<HTMLTextAreaElement>(null);
  const caret = useRef<number | undefined>(undefined);
  useLayoutEffect(() => {
    if (caret.current === undefined || !textarea.current) return;
    textarea.current.setSelectionRange(caret.current, caret.current);
    caret.current = undefined;
  }, [text]);

  // Chromium inserts pasted text into a textarea line by line: a 130 kB StructureDefinition took
  // 17 s with the tab frozen. Setting the value takes milliseconds; the caret goes after the paste.
  // (The browser's undo then does not step back over the paste.)
  function paste(event: ClipboardEvent<HTMLTextAreaElement>): void {
    const pasted = event.clipboardData.getData('text/plain');
    if (pasted.length < LARGE_PASTE) return;
    event.preventDefault();
    const { selectionStart, selectionEnd, value } = event.currentTarget;
    caret.current = selectionStart + pasted.length;
    setText(value.slice(0, selectionStart) + pasted + value.slice(selectionEnd));
  }

  async function save(): Promise<void> {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      setErrors([`Not valid JSON: ${(error as Error).message}`]);
      return;
    }
    const notOneResource = jsonShapeProblem(value);
    if (notOneResource) {
      setErrors([notOneResource]);
      return;
    }
    const parsed = value as Resource;
    if (parsed.resourceType !== base.resourceType || parsed.id !== base.id) {
      setErrors(['resourceType and id must stay as they are']);
      return;
    }
    if (sameJson(parsed, base)) {
      setErrors([]);
      notify(NO_CHANGES, { type: 'info' });
      return;
    }
    setSaving(true);
    setErrors([]);
    try {
      const stored = await client.updateResource(parsed, ifMatchOptions(base));
      queryClient.setQueryData(resourceQueryKey(stored.resourceType, stored.id as string), stored);
      await queryClient.invalidateQueries({ queryKey: ['hearth-history', stored.resourceType] });
      notify('Updated', { type: 'success' });
      saved.current = true;
      navigate(`/${stored.resourceType}/${stored.id}/details`);
    } catch (error) {
      if (isEditConflict(error)) {
        // Nothing written; the text stays. History shows their version; reloading the page rebuilds the text on it.
        const message = editConflictMessage(base.resourceType);
        setErrors([
          message,
          'Nothing was saved and your text is kept. History shows their version; reloading the page rebuilds this text on it.',
        ]);
        notify(message, { type: 'error', autoHideDuration: null });
        return;
      }
      const issues =
        error instanceof OperationOutcomeError
          ? (error.outcome.issue ?? []).map(
              (i) => `${issueText(i)}${i.expression?.length ? ` (${i.expression.join(', ')})` : ''}`,
            )
          : [(error as Error).message];
      setErrors(issues);
      notify((error as Error).message, { type: 'error', autoHideDuration: null, multiLine: true });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <UnsavedChangesGuard isDirty={() => !saved.current && text !== baseText} />
      {errors.length > 0 && (
        <Alert severity="error" role="alert">
          {errors.map((error, index) => (
            <div key={index}>{error}</div>
          ))}
        </Alert>
      )}
      <TextField
        label="JSON"
        multiline
        minRows={16}
        fullWidth
        value={text}
        onChange={(event) => setText(event.target.value)}
        inputRef={textarea}
        slotProps={{
          htmlInput: {
            onPaste: paste,
            spellCheck: false,
            style: { fontFamily: 'monospace', fontSize: 13 },
            readOnly: !editable,
          },
        }}
      />
      {editable && (
        <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button variant="contained" onClick={() => void save()} disabled={saving}>
            Save JSON
          </Button>
        </Box>
      )}
    </Box>
  );
}
