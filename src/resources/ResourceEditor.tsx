import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
} from '@mui/material';
import type { OperationOutcome, Resource, ResourceType } from '@medplum/fhirtypes';
import { hiddenFieldsFor, readonlyFieldsFor } from '../../data-provider/access';
import type { PatchOperation } from '../../data-provider/client';
import { OperationOutcomeError } from '../../data-provider/outcomes';
import { canPerformOnType, permissionDeniedMessage } from './accessRules';
import { createJsonPatch, validateResource } from '../../schema-engine';
import { changedElements, editConflictMessage, ifMatchOptions, isEditConflict } from './editConflict';
import { ProfilePicker } from './ProfilePicker';
import { ResourceForm } from './ResourceForm';
import { useTypeSchema } from './schemaHooks';
import { withProfileDefaults } from './profileDefaults';
import { schemaLoaderFor, type TypeSchema } from './typeSchema';
import { resourceQueryKey } from './useResource';
import { useFhirClient } from './useFhirClient';
import { useSaveErrorToasts } from './useSaveErrorToasts';
import { useToast } from '../shell/toasts';
import { useResourcePaths } from './resourcePaths';
import { hasUnsavedChanges, NO_CHANGES, sameJson } from './unsavedChanges';
import { UnsavedChangesGuard } from './UnsavedChangesGuard';
import { stripEmpty } from '../datatypes/inputProps';

function outcomeOf(error: unknown): OperationOutcome {
  if (error instanceof OperationOutcomeError) return error.outcome;
  return {
    resourceType: 'OperationOutcome',
    issue: [{ severity: 'error', code: 'exception', details: { text: (error as Error).message } }],
  };
}

/** A refused stale write: what the other user changed (when their version could be read). */
interface Conflict {
  theirs?: Resource;
  changed: string[];
}

function conflictDetails(conflict: Conflict): string {
  // Version ids are opaque (uuids on the server): what changed is what the user can act on.
  const theirs = conflict.changed.length ? ` They changed ${conflict.changed.join(', ')}.` : '';
  return `Nothing was saved; your changes are still in the form.${theirs} Load their version to make your changes on it (those typed here are discarded).`;
}

/**
 * The Edit tab and the create page: the form, its profile, the access check and pessimistic writes.
 * Writes carry If-Match with the version the form was built from: a change someone made since is
 * refused (412) and told, the form keeping what was typed, never silently overwritten. An Update or
 * Patch changing nothing sends nothing; leaving the form with unsaved changes asks first.
 * `updatedMessage` names a successful update where a screen's spec says otherwise (the chart's patient
 * edit says "Success", app-spec §8); the console says "Updated".
 */
export function ResourceEditor(props: { resource: Resource; updatedMessage?: string }) {
  const client = useFhirClient();
  const navigate = useNavigate();
  const toast = useToast();
  const errorToasts = useSaveErrorToasts();
  const queryClient = useQueryClient();
  const paths = useResourcePaths();
  const { resourceType } = props.resource;
  const [profileUrl, setProfileUrl] = useState<string | undefined>(props.resource.meta?.profile?.[0]);
  const schema = useTypeSchema(resourceType, profileUrl);
  // Benchmark mark (docs/benchmarks.md): the form's fields are committed to the DOM (layout effects run after children's).
  useLayoutEffect(() => void (schema.data && performance.mark('hearth:editor-ready')), [schema.data]);
  const [outcome, setOutcome] = useState<OperationOutcome>();
  const [submitting, setSubmitting] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const [current, setCurrent] = useState(props.resource);
  const [conflict, setConflict] = useState<Conflict>();
  const [confirmReload, setConfirmReload] = useState(false);
  // The conflict's alert sits above the form, the Update button below it: brought into view when it shows.
  const conflictAlert = useRef<HTMLDivElement>(null);
  const conflicted = !!conflict;
  useEffect(() => {
    if (conflicted) conflictAlert.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [conflicted]);
  // The form's latest draft, tagged with the form instance it came from (a remount starts clean).
  const draft = useRef<{ key: string; value: Resource }>(undefined);
  const policy = client.getAccessPolicy();
  // A new resource under a profile starts with the profile's required slices and fixed values.
  const isNew = !props.resource.id;
  const prefilled = useQuery({
    queryKey: ['hearth-profile-defaults', resourceType, profileUrl ?? ''],
    queryFn: () => withProfileDefaults(schemaLoaderFor(client), props.resource, schema.data as TypeSchema),
    enabled: isNew && !!profileUrl && !!schema.data,
    staleTime: Infinity,
    retry: false,
  });
  // The form waits for the defaults: mounting it before would drop what the user typed when they arrive.
  const awaitingDefaults = isNew && !!profileUrl && !prefilled.data && !prefilled.error;
  const base = isNew && profileUrl && prefilled.data ? prefilled.data : current;
  const formInstance = `${formKey}:${profileUrl ?? ''}:${prefilled.dataUpdatedAt}`;
  const isDirty = (): boolean => draft.current?.key === formInstance && hasUnsavedChanges(base, draft.current.value);

  // A newer version read while the form is open (a refetch) replaces it only when nothing was typed;
  // otherwise the form stays on the version it was built from and a save is refused as a conflict.
  const incoming = props.resource;
  useEffect(() => {
    if (isNew || incoming.meta?.versionId === current.meta?.versionId || submitting) return;
    if (isDirty()) return;
    setCurrent(incoming);
    setFormKey((key) => key + 1);
  }, [incoming]);

  if (!canPerformOnType(policy, client.isSuperAdmin(), resourceType, isNew ? 'create' : 'update')) {
    return (
      <Alert severity="error">
        <AlertTitle>Permission denied</AlertTitle>
        {permissionDeniedMessage(resourceType)}
      </Alert>
    );
  }

  async function write(
    work: () => Promise<Resource | undefined>,
    success: string,
    toValidate?: Resource,
  ): Promise<void> {
    setSubmitting(true);
    setOutcome(undefined);
    setConflict(undefined);
    try {
      // Under a profile the form checks it first (slices, fixed values, invariants): the server's writes
      // do not evaluate profiles, so this is where a profile's constraints are enforced for the user.
      if (toValidate && profileUrl && schema.data) {
        const issues = await validateResource(toValidate, schema.data, { schemas: schemaLoaderFor(client) });
        const errors = issues.filter((issue) => issue.severity === 'error' || issue.severity === 'fatal');
        if (errors.length > 0) {
          throw new OperationOutcomeError({ resourceType: 'OperationOutcome', issue: errors });
        }
      }
      // The client already dropped its cached GETs of this type when the write went through.
      const saved = await work();
      await queryClient.invalidateQueries({ queryKey: ['hearth-history', resourceType] });
      errorToasts.closeAll();
      toast.success(success);
      // Saved or deleted: nothing left to lose on the way to the saved page or the list.
      draft.current = undefined;
      if (saved) {
        queryClient.setQueryData(resourceQueryKey(resourceType, saved.id as string), saved);
        setCurrent(saved);
        setFormKey((key) => key + 1);
        navigate(paths.saved(saved));
      } else {
        await queryClient.invalidateQueries({ queryKey: ['hearth-search', resourceType] });
        navigate(paths.list(resourceType));
      }
    } catch (error) {
      if (isEditConflict(error) && current.id) {
        // Nothing was written; the form keeps every typed value. Their version is read to say what they changed.
        errorToasts.show(editConflictMessage(resourceType));
        setConflict({ changed: [] });
        try {
          const theirs = (await client.readResource(resourceType as ResourceType, current.id, {
            cache: 'no-cache',
          })) as Resource;
          setConflict({ theirs, changed: changedElements(current, theirs) });
        } catch {
          // Deleted or unreadable since: the message alone stays; Load their version reads again.
        }
        return;
      }
      setOutcome(outcomeOf(error));
      // Failures stay until closed or a later save succeeds, and keep their line breaks (app-spec §8);
      // the form keeps its input.
      errorToasts.show((error as Error).message);
    } finally {
      setSubmitting(false);
    }
  }

  /** After a confirm: the form rebuilt on the stored version, so the user can redo their change and save. */
  async function loadTheirVersion(): Promise<void> {
    setConfirmReload(false);
    let theirs = conflict?.theirs;
    try {
      theirs ??= (await client.readResource(resourceType as ResourceType, current.id as string, {
        cache: 'no-cache',
      })) as Resource;
    } catch (error) {
      errorToasts.show((error as Error).message);
      return;
    }
    queryClient.setQueryData(resourceQueryKey(resourceType, theirs.id as string), theirs);
    await queryClient.invalidateQueries({ queryKey: ['hearth-history', resourceType] });
    errorToasts.closeAll();
    setConflict(undefined);
    setOutcome(undefined);
    setCurrent(theirs);
    setFormKey((key) => key + 1);
  }

  /** Nothing the form would send differs from what it was built from: no request, no new version. */
  function unchanged(resource: Resource): boolean {
    if (sameJson(stripEmpty(current), resource)) {
      toast.info(NO_CHANGES);
      return true;
    }
    return false;
  }

  const withProfile = (resource: Resource): Resource => {
    if (!profileUrl || resource.meta?.profile?.includes(profileUrl)) return resource;
    return { ...resource, meta: { ...resource.meta, profile: [...(resource.meta?.profile ?? []), profileUrl] } };
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <UnsavedChangesGuard isDirty={isDirty} />
      {conflict && (
        <Alert
          ref={conflictAlert}
          severity="error"
          role="alert"
          action={
            <Button color="inherit" size="small" sx={{ whiteSpace: 'nowrap' }} onClick={() => setConfirmReload(true)}>
              Load their version
            </Button>
          }
        >
          <AlertTitle>{editConflictMessage(resourceType)}</AlertTitle>
          {conflictDetails(conflict)}
        </Alert>
      )}
      <Dialog open={confirmReload} onClose={() => setConfirmReload(false)} aria-labelledby="load-theirs-title">
        <DialogTitle id="load-theirs-title">Load their version?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            The form is rebuilt on the stored {resourceType}; the changes you made here are discarded.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirmReload(false)} autoFocus>
            Keep editing
          </Button>
          <Button color="error" variant="contained" onClick={() => void loadTheirVersion()}>
            Discard and load
          </Button>
        </DialogActions>
      </Dialog>
      <ProfilePicker resourceType={resourceType} value={profileUrl} onChange={setProfileUrl} />
      {schema.error && <Alert severity="error">{schema.error.message}</Alert>}
      {!schema.data && !schema.error && <CircularProgress aria-label="Loading..." />}
      {schema.data && awaitingDefaults && <CircularProgress aria-label="Loading..." />}
      {schema.data && !awaitingDefaults && (
        <ResourceForm
          key={formInstance}
          schema={schema.data}
          defaultValue={base}
          onDraftChange={(value) => (draft.current = { key: formInstance, value })}
          outcome={outcome}
          submitting={submitting}
          onInvalid={(refused) => {
            // Refused before sending, told as a failed save is: under the fields, above them and in a toast.
            setOutcome(undefined);
            errorToasts.show(new OperationOutcomeError(refused).message);
          }}
          readonlyFields={readonlyFieldsFor(policy, resourceType, isNew ? 'create' : 'update')}
          hiddenFields={hiddenFieldsFor(policy, resourceType)}
          onSubmit={(resource) => {
            if (resource.id && unchanged(withProfile(resource))) return;
            void write(
              () =>
                resource.id
                  ? client.updateResource(withProfile(resource), ifMatchOptions(current))
                  : client.createResource(withProfile(resource)),
              resource.id ? (props.updatedMessage ?? 'Updated') : 'Created',
              withProfile(resource),
            );
          }}
          onPatch={(resource) => {
            if (unchanged(withProfile(resource))) return;
            void write(
              () =>
                client.patchResource(
                  resourceType as ResourceType,
                  current.id as string,
                  createJsonPatch(current, withProfile(resource)) as PatchOperation[],
                  ifMatchOptions(current),
                ) as Promise<Resource>,
              props.updatedMessage ?? 'Patched',
              withProfile(resource),
            );
          }}
          onDelete={() =>
            void write(async () => {
              await client.deleteResource(resourceType as ResourceType, current.id as string);
              return undefined;
            }, 'Deleted')
          }
        />
      )}
    </Box>
  );
}
