import { useEffect, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import {
  Alert,
  Box,
  Button,
  IconButton,
  LinearProgress,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import type { Resource } from '@medplum/fhirtypes';
import { CHART_TAB_PAGE_SIZE, CHART_TABS } from '../../config/clinical/chartTabs';
import { isKnownResourceType } from '../../data-provider/rules';
import { StatusBadge } from '../../src/datatypes/StatusBadge';
// The chip alone, not the tasks folder's index: the task screens stay in their own lazy chunk.
import { TaskDueChip } from '../tasks/TaskDueChip';
import { AccessPolicyNotice } from './AccessPolicyNotice';
import { isAccessDenied } from './accessDenied';
import { chartListLabel } from './chartListLabel';
import { chartPath } from './chartPaths';
import { useChartViewer } from './chartViewer';
import { DeceasedTasksLine } from './deceased';
import { FormlessTasksLine } from './FormlessTasksLine';
import { ListDate } from './ListDate';
import { ObservationValue } from './ObservationValue';
import { chartColumns, type ChartCell } from './tabColumns';
import { useChartAccess } from './useChartAccess';
import { useChartTabSearch } from './useChartTabSearch';

function Cell({ cell }: { cell: ChartCell }) {
  if (cell.kind === 'status') return <StatusBadge status={cell.status} />;
  if (cell.kind === 'due') return <TaskDueChip due={cell.due} inDueColumn />;
  if (cell.kind === 'date') return <ListDate parts={cell} />;
  if (cell.kind === 'value') return <ObservationValue cell={cell} />;
  return <>{cell.text}</>;
}

/** The row's link text: its title, or words saying it has none (a link must have a name). */
function FirstCell({ cell }: { cell: ChartCell }) {
  return cell.kind === 'text' && !cell.text ? <>(untitled)</> : <Cell cell={cell} />;
}

/**
 * Below this width of the list (not the window: at 1024 px the chart's navigation and patient
 * sidebar leave the tab ~420 px) the secondary columns go, so that what, status and when due stay
 * in view without scrolling sideways.
 */
const narrowList = '@container chart-tab-list (max-width: 640px)';
const wideList = '@container chart-tab-list (width > 640px)';
const hiddenWhenNarrow = { [narrowList]: { display: 'none' } };
/**
 * Below this width (the tab beside the navigation and the patient sidebar at 1280 px is ~650 px)
 * the cells' side padding is halved: a date keeps to one line, and the columns' words keep room.
 */
const compactList = '@container chart-tab-list (max-width: 800px)';
const listCells = {
  // A task's due-date chip is one line like the dates beside it, while there is room for it.
  [wideList]: { '& [data-due] .MuiChip-label': { whiteSpace: 'nowrap' } },
  [compactList]: { '& .MuiTableCell-root': { px: 1 } },
  // Narrower: a date's time of day may go below its day, rather than push the columns off the side.
  [narrowList]: { '& .MuiTableCell-root': { px: 0.75 }, '& time': { whiteSpace: 'normal' } },
};

/** `/Patient/{id}/{resourceType}`: the patient's resources of the type, newest first (app-spec §2.3). */
export function ChartTabList() {
  const { patientId = '', resourceType = '' } = useParams();
  const navigate = useNavigate();
  const access = useChartAccess();
  const known = isKnownResourceType(resourceType);
  const tab = CHART_TABS.find((candidate) => candidate.resourceType === resourceType);
  const label = chartListLabel(resourceType);
  const [offset, setOffset] = useState(0);
  useEffect(() => setOffset(0), [resourceType, patientId]);
  useEffect(() => {
    if (!known) navigate('..', { replace: true });
  }, [known, navigate]);
  // Not asked when the policy would refuse it: the tab is out of the caller's tab bar anyway.
  const searchable = known && access.canSearch(resourceType);
  const results = useChartTabSearch(resourceType, patientId, tab?.filters, offset, tab?.includes, searchable);
  // Before the early return: the same component goes from an unknown type to a known one.
  const { patientView } = useChartViewer();
  if (!known) return null;
  if (!searchable || (results.error && isAccessDenied(results.error))) return <AccessPolicyNotice label={label} />;

  const columns = chartColumns(resourceType);
  const canCreate = !patientView && access.canWrite(resourceType);
  const rows = results.data?.resources ?? [];
  const names = results.data?.names;
  const total = results.data?.total;
  const open = (resource: Resource, event: MouseEvent | KeyboardEvent) => {
    const link = chartPath(patientId, resourceType, resource.id ?? '');
    if (event.ctrlKey || event.metaKey || ('button' in event && event.button === 1))
      window.open(link, '_blank', 'noopener');
    else navigate(link);
  };

  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 1 }}>
        <Typography variant="h6" component="h2">
          {label}
        </Typography>
        <Typography variant="body2" sx={{ flexGrow: 1, color: 'text.secondary' }}>
          {total !== undefined && `${total.toLocaleString('en-US')} total`}
        </Typography>
        {canCreate && (
          <Button
            variant="contained"
            size="small"
            startIcon={<AddIcon />}
            component={RouterLink}
            to={tab?.newRecordPath?.(patientId) ?? chartPath(patientId, resourceType, 'new')}
          >
            New
          </Button>
        )}
        <IconButton
          aria-label="Previous page"
          disabled={offset === 0}
          onClick={() => setOffset(Math.max(0, offset - CHART_TAB_PAGE_SIZE))}
        >
          <ChevronLeftIcon />
        </IconButton>
        <IconButton
          aria-label="Next page"
          disabled={total === undefined || offset + CHART_TAB_PAGE_SIZE >= total}
          onClick={() => setOffset(offset + CHART_TAB_PAGE_SIZE)}
        >
          <ChevronRightIcon />
        </IconButton>
      </Box>
      {resourceType === 'Task' && <DeceasedTasksLine patientId={patientId} />}
      {resourceType === 'Task' && <FormlessTasksLine patientId={patientId} />}
      {results.isFetching && <LinearProgress aria-label="Loading..." />}
      {results.error && <Alert severity="error">{results.error.message}</Alert>}
      {results.data && rows.length === 0 && (
        <Typography sx={{ py: 2 }}>No {label.toLowerCase()} for this patient yet.</Typography>
      )}
      {rows.length > 0 && (
        <TableContainer sx={{ containerType: 'inline-size', containerName: 'chart-tab-list' }}>
          <Table size="small" aria-label={label} sx={listCells}>
            <TableHead>
              <TableRow>
                {columns.map((column) => (
                  <TableCell
                    key={column.label}
                    component="th"
                    scope="col"
                    sx={{ fontWeight: 700, ...(column.secondary ? hiddenWhenNarrow : {}) }}
                  >
                    {column.label}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((resource) => (
                <TableRow
                  key={resource.id}
                  hover
                  onClick={(event) => open(resource, event)}
                  onAuxClick={(event) => open(resource, event)}
                  sx={{ cursor: 'pointer' }}
                >
                  {columns.map((column, index) => (
                    <TableCell key={column.label} sx={column.secondary ? hiddenWhenNarrow : undefined}>
                      {index === 0 ? (
                        // The first cell is the row's link, so keyboard users reach every row.
                        <RouterLink
                          to={chartPath(patientId, resourceType, resource.id ?? '')}
                          onClick={(event) => event.stopPropagation()}
                          style={{ color: 'inherit', fontWeight: 600 }}
                        >
                          <FirstCell cell={column.cell(resource, names)} />
                        </RouterLink>
                      ) : (
                        <Cell cell={column.cell(resource, names)} />
                      )}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  );
}
