import { useLayoutEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, AlertTitle, Box, CircularProgress } from '@mui/material';
import type { OperationOutcome, Resource, ResourceType } from '@medplum/fhirtypes';
import { hiddenFieldsFor, readonlyFieldsFor } from '../../data-provider/access';
import type { PatchOperation } from '../../data-provider/client';
import { OperationOutcomeError } from '../../data-provider/outcomes';
import { canPerformOnType, permissionDeniedMessage } from './accessRules';
import { createJsonPatch, validateResource } from '../../schema-engine';
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

function outcomeOf(error: unknown): OperationOutcome {
  if (error instanceof OperationOutcomeError) return error.outcome;
  return {
    resourceType: 'OperationOutcome',
    issue: [{ severity: 'error', code: 'exception', details: { text: (error as Error).message } }],
  };
}

/**
 * The Edit tab and the create page: the form, its profile, the access check and pessimistic writes.
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
      setOutcome(outcomeOf(error));
      // Failures stay until closed or a later save succeeds, and keep their line breaks (app-spec §8);
      // the form keeps its input.
      errorToasts.show((error as Error).message);
    } finally {
      setSubmitting(false);
    }
  }

  const withProfile = (resource: Resource): Resource => {
    if (!profileUrl || resource.meta?.profile?.includes(profileUrl)) return resource;
    return { ...resource, meta: { ...resource.meta, profile: [...(resource.meta?.profile ?? []), profileUrl] } };
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <ProfilePicker resourceType={resourceType} value={profileUrl} onChange={setProfileUrl} />
      {schema.error && <Alert severity="error">{schema.error.message}</Alert>}
      {!schema.data && !schema.error && <CircularProgress aria-label="Loading..." />}
      {schema.data && awaitingDefaults && <CircularProgress aria-label="Loading..." />}
      {schema.data && !awaitingDefaults && (
        <ResourceForm
          key={`${formKey}:${profileUrl ?? ''}:${prefilled.dataUpdatedAt}`}
          schema={schema.data}
          defaultValue={isNew && profileUrl && prefilled.data ? prefilled.data : current}
          outcome={outcome}
          submitting={submitting}
          onInvalid={(refused) => {
            // Refused before sending, told as a failed save is: under the fields, above them and in a toast.
            setOutcome(undefined);
            errorToasts.show(new OperationOutcomeError(refused).message);
          }}
          readonlyFields={readonlyFieldsFor(policy, resourceType, isNew ? 'create' : 'update')}
          hiddenFields={hiddenFieldsFor(policy, resourceType)}
          onSubmit={(resource) =>
            void write(
              () =>
                resource.id
                  ? client.updateResource(withProfile(resource))
                  : client.createResource(withProfile(resource)),
              resource.id ? (props.updatedMessage ?? 'Updated') : 'Created',
              withProfile(resource),
            )
          }
          onPatch={(resource) =>
            void write(
              () =>
                client.patchResource(
                  resourceType as ResourceType,
                  current.id as string,
                  createJsonPatch(current, withProfile(resource)) as PatchOperation[],
                ) as Promise<Resource>,
              props.updatedMessage ?? 'Patched',
              withProfile(resource),
            )
          }
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
