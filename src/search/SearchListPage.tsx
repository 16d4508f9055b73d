import { useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { isKnownResourceType } from '../../data-provider/rules';
import { useTypeSchema } from '../resources/schemaHooks';
import { useFhirClient } from '../resources/useFhirClient';
import { defaultColumns } from './defaultColumns';
import { BulkBotDialog } from './BulkBotDialog';
import { canOfferBulk, type BulkCaller } from './bulkAccess';
import { listActionsFor } from './listActions';
import { resourceLink } from './rowLink';
import { SearchControl } from './SearchControl';
import { formatConsoleSearch, lastSearch, parseConsoleSearch, rememberSearch, type ConsoleSearch } from './searchState';

/** `/:resourceType`: the generic search list with checkboxes, New..., Export..., Delete... and Bulk.... */
export function SearchListPage() {
  const { resourceType = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const client = useFhirClient();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const known = isKnownResourceType(resourceType);
  const [toDelete, setToDelete] = useState<string[]>();
  const [bulkIds, setBulkIds] = useState<string[]>();
  const caller: BulkCaller = {
    policy: client.getAccessPolicy(),
    superAdmin: client.isSuperAdmin(),
    projectAdmin: client.isProjectAdmin(),
  };

  const actions = listActionsFor(caller.policy, caller.superAdmin, resourceType);

  // With no query in the address, continue the last search of this type.
  const remembered = !location.search && known ? lastSearch(window.localStorage, resourceType) : undefined;
  useEffect(() => {
    if (!known) navigate('..', { replace: true });
    else if (remembered) navigate({ search: `?${remembered}` }, { replace: true });
  }, [known, remembered, navigate]);

  // Without `_fields` in the address the list opens with the columns a person reads (name, code...).
  const schema = useTypeSchema(known ? resourceType : undefined);
  const parsed = useMemo(() => {
    try {
      const query = new URLSearchParams(location.search);
      return { search: parseConsoleSearch(resourceType, query, defaultColumns(schema.data)) };
    } catch (error) {
      return { error: (error as Error).message };
    }
  }, [resourceType, location.search, schema.data]);

  useEffect(() => {
    if (known && location.search) rememberSearch(window.localStorage, resourceType, location.search.slice(1));
  }, [known, resourceType, location.search]);

  if (!known || remembered) return null;
  if (!parsed.search) {
    return (
      <Box sx={{ p: 2 }}>
        <Typography color="error">{parsed.error}</Typography>
        <Button onClick={() => navigate({ search: '' })}>Reset search</Button>
      </Box>
    );
  }

  const change = (search: ConsoleSearch) => navigate({ search: `?${formatConsoleSearch(search)}` });
  const open = (resource: Resource, alternate: boolean) => {
    const link = resourceLink(resource);
    if (alternate) window.open(link, '_blank', 'noopener');
    else navigate(link);
  };

  async function refreshList(): Promise<void> {
    client.invalidateSearches(resourceType);
    await queryClient.invalidateQueries({ queryKey: ['hearth-search', resourceType] });
  }

  async function deleteSelected(ids: string[]): Promise<void> {
    setToDelete(undefined);
    const batch: Bundle = {
      resourceType: 'Bundle',
      type: 'batch',
      entry: ids.map((id) => ({ request: { method: 'DELETE', url: `${resourceType}/${id}` } })),
    };
    try {
      const result = await client.executeBatch(batch);
      const failed = (result.entry ?? []).filter((entry) => !entry.response?.status?.startsWith('2'));
      if (failed.length) notify(`${failed.length} of ${ids.length} could not be deleted`, { type: 'error' });
      else notify(`Deleted ${ids.length} ${resourceType} resource${ids.length === 1 ? '' : 's'}`, { type: 'success' });
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
    await refreshList();
  }

  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Typography variant="h5" component="h1" sx={{ mb: 1 }}>
        {resourceType}
      </Typography>
      <SearchControl
        search={parsed.search}
        onChange={change}
        onClick={open}
        checkboxesEnabled
        onNew={actions.create ? () => navigate(`/${resourceType}/new`) : undefined}
        exportEnabled={actions.exportAndDelete}
        onDelete={actions.exportAndDelete ? (ids) => setToDelete(ids) : undefined}
        onBulk={canOfferBulk(caller) ? (ids) => setBulkIds(ids) : undefined}
      />
      {bulkIds && (
        <BulkBotDialog
          resourceType={resourceType}
          ids={bulkIds}
          caller={caller}
          onClose={() => setBulkIds(undefined)}
          onFinished={() => void refreshList()}
        />
      )}
      <Dialog open={!!toDelete} onClose={() => setToDelete(undefined)}>
        <DialogTitle>Delete {resourceType}</DialogTitle>
        <DialogContent>
          <DialogContentText>
            Delete {toDelete?.length} selected {resourceType} resource{toDelete?.length === 1 ? '' : 's'}? This cannot
            be undone from this screen.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setToDelete(undefined)}>Cancel</Button>
          <Button color="error" variant="contained" onClick={() => toDelete && void deleteSelected(toDelete)}>
            Delete
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
