import { useMemo, useState, type FormEvent } from 'react';
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
import { issueText, outcomeErrors } from './outcomeErrors';
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
}

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
  const { schema } = props;
  const errors = useMemo(() => outcomeErrors(props.outcome, () => true).byPath, [props.outcome]);
  const issues = (props.outcome?.issue ?? []).filter((i) => i.severity === 'error' || i.severity === 'fatal');
  const isNew = !props.defaultValue.id;
  // The type's own elements first; the generic resource elements (meta, text, extensions…) after them.
  const all = childElements(schema, '').filter((element) => element.name !== 'id');
  const elements = typeElementsFirst(all);
  const result = () => (stripEmpty(value) ?? { resourceType: schema.type }) as unknown as Resource;

  function submit(event: FormEvent): void {
    event.preventDefault();
    props.onSubmit(result());
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
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
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
            onParentChange={(next) => setValue({ ...next, resourceType: schema.type })}
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
            py: 1,
            bgcolor: 'background.paper',
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
                      props.onPatch?.(result());
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
