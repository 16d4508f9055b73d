import { useMemo, useState, type FormEvent, type KeyboardEvent } from 'react';
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Menu,
  MenuItem,
  TextField,
} from '@mui/material';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import type { OperationOutcome, Resource } from '@medplum/fhirtypes';
import { ElementField } from '../datatypes/ElementField';
import { ResourceFormContext } from '../datatypes/formContext';
import { stripEmpty } from '../datatypes/inputProps';
import { localDay } from '../../data-provider/rules';
import { futureDateIssues } from './futureDates';
import { issueText, outcomeErrors } from './outcomeErrors';
import { missingInRows } from './requiredInRows';
import { childElements, typeElementsFirst, type TypeSchema } from './typeSchema';

export interface ResourceFormProps {
  schema: TypeSchema;
  defaultValue: Resource;
  outcome?: OperationOutcome;
  readonlyFields?: readonly string[];
  hiddenFields?: readonly string[];
  submitting?: boolean;
  onSubmit: (resource: Resource) => void;
  onPatch?: (resource: Resource) => void;
  onDelete?: () => void;
  /** The form's own checks refused a save or patch (nothing was sent); the form shows the issues itself. */
  onInvalid?: (outcome: OperationOutcome) => void;
  /** Each edit: the whole resource as the form now holds it (unsaved changes are judged by the caller). */
  onDraftChange?: (draft: Resource) => void;
}

/** Action bar height (~52 px) plus a margin. */
const ACTION_BAR_CLEARANCE = '72px';

/**
 * The resource editor (app-spec §2.8): read-only Resource Type and ID, a typed input per element,
 * Create/Update and the More actions menu. The form edits a copy of the whole resource, so data it
 * does not show (unknown extensions, contained resources, `_field` primitive extensions) is kept.
 */
export function ResourceForm(props: ResourceFormProps) {
  const [value, setValue] = useState<Record<string, unknown>>(
    () => structuredClone(props.defaultValue) as unknown as Record<string, unknown>,
  );
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  // Issues of the form's own checks: shown like the server's until the next attempt passes them.
  const [clientOutcome, setClientOutcome] = useState<OperationOutcome>();
  const { schema } = props;
  const outcome = clientOutcome ?? props.outcome;
  const errors = useMemo(() => outcomeErrors(outcome, () => true).byPath, [outcome]);
  const issues = (outcome?.issue ?? []).filter((i) => i.severity === 'error' || i.severity === 'fatal');
  const isNew = !props.defaultValue.id;
  // The type's own elements first; the generic resource elements (meta, text, extensions…) after them.
  const all = childElements(schema, '').filter((element) => element.name !== 'id');
  const elements = typeElementsFirst(all);
  const result = () => (stripEmpty(value) ?? { resourceType: schema.type }) as unknown as Resource;

  /** The resource to send, or undefined (and the issues shown) when the form's own checks refuse it. */
  function checked(): Resource | undefined {
    const resource = result();
    const skip = [...(props.hiddenFields ?? []), ...(props.readonlyFields ?? [])];
    const found = [
      ...missingInRows(value, schema, skip),
      ...futureDateIssues(resource as unknown as Record<string, unknown>, localDay()),
    ];
    if (found.length === 0) {
      setClientOutcome(undefined);
      return resource;
    }
    const refused: OperationOutcome = { resourceType: 'OperationOutcome', issue: found };
    setClientOutcome(refused);
    props.onInvalid?.(refused);
    return undefined;
  }

  /** Enter in a picker (a coded, reference or other autocomplete field) works the picker; it never submits the form. */
  function keepEnterInPickers(event: KeyboardEvent): void {
    const target = event.target as HTMLElement;
    if (event.key === 'Enter' && target.tagName === 'INPUT' && target.getAttribute('role') === 'combobox') {
      event.preventDefault();
    }
  }

  function submit(event: FormEvent): void {
    event.preventDefault();
    const resource = checked();
    if (resource) props.onSubmit(resource);
  }

  return (
    <ResourceFormContext.Provider
      value={{
        errors,
        readonlyFields: props.readonlyFields ?? [],
        hiddenFields: props.hiddenFields ?? [],
        disabled: !!props.submitting,
      }}
    >
      <Box
        component="form"
        noValidate
        onSubmit={submit}
        onKeyDown={keepEnterInPickers}
        sx={{
          display: 'flex',
          flexDirection: 'column',
          gap: 2,
          // Room under the action bar at the end of the page, and a field reached with Tab or by
          // scrolling to an error is brought into view above the bar rather than behind it.
          pb: 2,
          '& input, & textarea, & [role="combobox"], & fieldset': { scrollMarginBottom: ACTION_BAR_CLEARANCE },
        }}
      >
        {issues.length > 0 && (
          <Alert severity="error" role="alert">
            <AlertTitle>Error</AlertTitle>
            <Box component="ul" sx={{ m: 0, pl: 2, whiteSpace: 'pre-line' }}>
              {issues.map((issue, index) => (
                <li key={index}>
                  {issueText(issue)}
                  {issue.expression?.length ? ` (${issue.expression.join(', ')})` : ''}
                </li>
              ))}
            </Box>
          </Alert>
        )}
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
          <TextField
            label="Resource Type"
            size="small"
            value={schema.type}
            disabled
            slotProps={{ htmlInput: { readOnly: true } }}
          />
          <TextField
            label="ID"
            size="small"
            value={props.defaultValue.id ?? ''}
            disabled
            slotProps={{ htmlInput: { readOnly: true } }}
          />
        </Box>
        {elements.map((element) => (
          <ElementField
            key={element.path}
            topLevel
            element={element}
            schema={schema}
            path={`${schema.type}.${element.name}`}
            parent={value}
            onParentChange={(next) => {
              const draft = { ...next, resourceType: schema.type };
              setValue(draft);
              props.onDraftChange?.(draft as unknown as Resource);
            }}
          />
        ))}
        <Box
          sx={{
            display: 'flex',
            gap: 1,
            // Start, not end: toasts sit bottom-right, and a persistent error toast must not hide Create.
            justifyContent: 'flex-start',
            position: 'sticky',
            bottom: 0,
            // Above the outlined inputs' floating labels (z-index 1), which otherwise show through
            // the bar while the form scrolls beneath it; below the app bar, menus and dialogs.
            zIndex: 2,
            py: 1,
            bgcolor: 'background.paper',
            borderTop: 1,
            borderColor: 'divider',
          }}
        >
          {!isNew && (props.onPatch || props.onDelete) && (
            <>
              <Button
                variant="outlined"
                startIcon={<MoreVertIcon />}
                aria-haspopup="menu"
                onClick={(event) => setMenuAnchor(event.currentTarget)}
                disabled={props.submitting}
              >
                More actions
              </Button>
              <Menu anchorEl={menuAnchor} open={!!menuAnchor} onClose={() => setMenuAnchor(null)}>
                {props.onPatch && (
                  <MenuItem
                    onClick={() => {
                      setMenuAnchor(null);
                      const resource = checked();
                      if (resource) props.onPatch?.(resource);
                    }}
                  >
                    Patch
                  </MenuItem>
                )}
                {props.onDelete && (
                  <MenuItem
                    onClick={() => {
                      setMenuAnchor(null);
                      setConfirmDelete(true);
                    }}
                    sx={{ color: 'error.main' }}
                  >
                    Delete
                  </MenuItem>
                )}
              </Menu>
            </>
          )}
          <Button type="submit" variant="contained" disabled={props.submitting}>
            {isNew ? 'Create' : 'Update'}
          </Button>
        </Box>
      </Box>
      <Dialog open={confirmDelete} onClose={() => setConfirmDelete(false)}>
        <DialogTitle>Delete {schema.type}</DialogTitle>
        <DialogContent>
          <DialogContentText>
            Delete {schema.type}/{props.defaultValue.id}? Its history stays readable.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirmDelete(false)}>Cancel</Button>
          <Button
            color="error"
            variant="contained"
            onClick={() => {
              setConfirmDelete(false);
              props.onDelete?.();
            }}
          >
            Delete
          </Button>
        </DialogActions>
      </Dialog>
    </ResourceFormContext.Provider>
  );
}
