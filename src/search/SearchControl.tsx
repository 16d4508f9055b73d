import {
  memo,
  useCallback,
  useDeferredValue,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  IconButton,
  LinearProgress,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Toolbar,
  Typography,
  useMediaQuery,
  alpha,
  type Theme,
} from '@mui/material';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import RefreshIcon from '@mui/icons-material/Refresh';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import CancelIcon from '@mui/icons-material/Cancel';
import type { Resource } from '@medplum/fhirtypes';
import { isAbortError } from '../../data-provider/client';
import { isEstimatedTotal, type Filter, type Operator } from '../../data-provider/search';
import { useSearchParameters, useTypeSchema } from '../resources/schemaHooks';
import { ColumnMenu } from './ColumnMenu';
import { ExportDialog } from './ExportDialog';
import { FieldsDialog } from './FieldsDialog';
import { FilterPromptDialog } from './FilterPromptDialog';
import { FiltersDialog } from './FiltersDialog';
import {
  availableFields,
  columnFormatter,
  columnSearchParameter,
  columnSearchParameters,
  fieldLabel,
} from './searchColumns';
import { activeFilterText, filterReferences } from './activeFilterText';
import {
  currentPage,
  formatPageRange,
  withFields,
  withFilters,
  withPage,
  withSort,
  type ConsoleSearch,
} from './searchState';
import { useSearchResults } from './useSearchResults';
import { useProgressiveRows } from './useProgressiveRows';
import { usePageNames } from './usePageNames';
import { useReferenceNames } from './useReferenceNames';
import { useColumnFhirpath } from './fhirpathColumns';
import { STATUS_BADGE_PALETTE } from '../datatypes/StatusBadge';
import { statusColor, type StatusColor } from '../datatypes/statusColor';

export interface SearchControlProps {
  search: ConsoleSearch;
  onChange: (search: ConsoleSearch) => void;
  /** Row click; `alternate` for middle-, ctrl- and meta-clicks (open in a new tab). */
  onClick: (resource: Resource, alternate: boolean) => void;
  hideToolbar?: boolean;
  checkboxesEnabled?: boolean;
  onNew?: () => void;
  exportEnabled?: boolean;
  onDelete?: (ids: string[]) => void;
  onBulk?: (ids: string[]) => void;
}

/** The generic search list of app-spec §2.6. */
export function SearchControl(props: SearchControlProps) {
  const { search, onChange } = props;
  const request = search.request;
  const fields = request.fields ?? [];
  const narrow = useMediaQuery('(max-width:767.95px)');
  const results = useSearchResults(request);
  const schema = useTypeSchema(request.resourceType);
  const parameters = useSearchParameters(request.resourceType);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [dialog, setDialog] = useState<'fields' | 'filters' | 'export' | undefined>();
  const [menu, setMenu] = useState<{ anchor: HTMLElement; field: string }>();
  const [prompt, setPrompt] = useState<{ code: string; operator: Operator }>();

  // A failed search is said once, in the list itself (the Alert below), not also in a toast.
  useEffect(() => setSelected(new Set()), [request.resourceType, request.offset]);

  // A new page renders in the background, in slices React interrupts for input: a page of 1,000
  // rows does not hold the main thread in one long task. Rows and range change together.
  const shownBundle = useDeferredValue(results.data);
  const resources = useMemo(
    () =>
      (shownBundle?.entry ?? [])
        .filter((entry) => entry.search?.mode !== 'include')
        .map((entry) => entry.resource as Resource)
        .filter(Boolean),
    [shownBundle],
  );
  const names = usePageNames(resources, fields, schema.data, parameters.data);
  const filterNames = useReferenceNames(useMemo(() => filterReferences(request.filters), [request.filters]));
  // An extension column is read by FHIRPath: its cells fill in once the engine has loaded.
  const fhirpathReady = useColumnFhirpath(fields, schema.data?.type, parameters.data);
  // Cell texts are computed once per page and columns: a selection change re-renders no row but its own.
  const rows = useMemo<ResultRowModel[]>(() => {
    const formatters = fields.map((field) => columnFormatter(field, schema.data, parameters.data, names));
    return resources.map((resource) => ({
      id: resource.id ?? '',
      resource,
      cells: formatters.map((format) => format(resource)),
      colors: fields.map((field) => statusCellColor(field, resource)),
    }));
    // fhirpathReady: once the engine has loaded, the formatters read extension columns through it.
  }, [resources, fields, schema.data, parameters.data, names, fhirpathReady]);
  const shownRows = useProgressiveRows(rows);
  const onClickRef = useRef(props.onClick);
  useLayoutEffect(() => {
    onClickRef.current = props.onClick;
  });
  const toggle = useCallback(
    (id: string) =>
      setSelected((current) => {
        const next = new Set(current);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    [],
  );
  const open = useCallback((event: MouseEvent | KeyboardEvent, resource: Resource) => {
    if ((event.target as HTMLElement).closest('input[type=checkbox]')) return;
    const alternate = ('button' in event && event.button === 1) || event.ctrlKey || event.metaKey;
    onClickRef.current(resource, alternate);
  }, []);

  const parameterFor = (field: string) => columnSearchParameter(field, schema.data, parameters.data ?? []);
  const addFilters = (filters: Filter[]) => onChange(withFilters(search, [...(request.filters ?? []), ...filters]));
  const allSelected = resources.length > 0 && resources.every((r) => selected.has(r.id ?? ''));
  const count = request.count ?? 20;
  const offset = request.offset ?? 0;
  const total = shownBundle?.total;
  const page = currentPage(request);
  const range = formatPageRange(offset, resources.length, total, isEstimatedTotal(request.total, total));
  const hasNext = total !== undefined ? offset + resources.length < total : resources.length === count;

  return (
    <Paper variant="outlined" sx={{ width: '100%', overflow: 'hidden' }}>
      {!props.hideToolbar && (
        <Toolbar variant="dense" sx={{ gap: 1, flexWrap: 'wrap', px: 1 }} aria-label="Search toolbar" role="toolbar">
          <Button size="small" onClick={() => setDialog('fields')}>
            Fields
          </Button>
          <Button size="small" onClick={() => setDialog('filters')}>
            Filters
          </Button>
          {props.onNew && (
            <Button size="small" onClick={props.onNew}>
              New...
            </Button>
          )}
          {!narrow && props.exportEnabled && (
            <Button size="small" onClick={() => setDialog('export')}>
              Export...
            </Button>
          )}
          {!narrow && props.onDelete && (
            <Button size="small" disabled={selected.size === 0} onClick={() => props.onDelete?.([...selected])}>
              Delete...
            </Button>
          )}
          {!narrow && props.onBulk && (
            <Button size="small" disabled={selected.size === 0} onClick={() => props.onBulk?.([...selected])}>
              Bulk...
            </Button>
          )}
          <IconButton size="small" aria-label="Refresh" onClick={() => void results.refetch()}>
            <RefreshIcon fontSize="small" />
          </IconButton>
          <Box sx={{ flexGrow: 1 }} />
          {props.checkboxesEnabled && selected.size > 0 && (
            <Typography variant="body2" color="text.secondary" aria-live="polite">
              {selected.size} selected
            </Typography>
          )}
          <Typography variant="body2" aria-live="polite">
            {range}
          </Typography>
          <IconButton
            size="small"
            aria-label="Previous page"
            disabled={page <= 1}
            onClick={() => onChange(withPage(search, page - 1))}
          >
            <ChevronLeftIcon />
          </IconButton>
          <IconButton
            size="small"
            aria-label="Next page"
            disabled={!hasNext}
            onClick={() => onChange(withPage(search, page + 1))}
          >
            <ChevronRightIcon />
          </IconButton>
        </Toolbar>
      )}
      {(request.filters?.length ?? 0) > 0 && !props.hideToolbar && (
        <Box sx={{ px: 2, pb: 1, display: 'flex', gap: 1, flexWrap: 'wrap' }} aria-label="Active filters">
          {request.filters?.map((filter, index) => {
            const text = activeFilterText(filter, filterNames);
            return (
              <Chip
                key={index}
                size="small"
                label={text}
                onDelete={() =>
                  onChange(
                    withFilters(
                      search,
                      (request.filters ?? []).filter((_, other) => other !== index),
                    ),
                  )
                }
                deleteIcon={<CancelIcon aria-label={`Remove filter ${text}`} />}
              />
            );
          })}
        </Box>
      )}
      {results.isFetching && <LinearProgress aria-label="Loading results" />}
      <TableContainer sx={{ maxHeight: '70vh' }}>
        <Table size="small" stickyHeader aria-label={`${request.resourceType} search results`} sx={tableStyle}>
          <TableHead>
            <TableRow>
              {props.checkboxesEnabled && (
                <TableCell padding="checkbox">
                  <input
                    type="checkbox"
                    aria-label="Select all"
                    checked={allSelected}
                    ref={(input) => {
                      if (input) input.indeterminate = !allSelected && selected.size > 0;
                    }}
                    onChange={() => setSelected(allSelected ? new Set() : new Set(resources.map((r) => r.id ?? '')))}
                  />
                </TableCell>
              )}
              {fields.map((field) => (
                <TableCell
                  key={field}
                  sortDirection={sortDirection(request.sortRules, parameterFor(field)?.code ?? field)}
                >
                  <Button
                    size="small"
                    color="inherit"
                    endIcon={<ArrowDropDownIcon />}
                    sx={{ fontWeight: 600, textTransform: 'none', px: 0.5 }}
                    onClick={(event) => setMenu({ anchor: event.currentTarget, field })}
                  >
                    {fieldLabel(field)}
                  </Button>
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {shownRows.map((row) => (
              <ResultRow
                key={row.id}
                row={row}
                checkbox={!!props.checkboxesEnabled}
                selected={selected.has(row.id)}
                onToggle={toggle}
                onOpen={open}
              />
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {results.isSuccess && shownBundle === results.data && resources.length === 0 && (
        <Box sx={{ p: 3, textAlign: 'center' }}>
          <Typography color="text.secondary">No results</Typography>
        </Box>
      )}
      {results.error && !isAbortError(results.error) && (
        <Alert severity="error" sx={{ m: 1 }}>
          {results.error.message}
        </Alert>
      )}
      {dialog === 'fields' && (
        <FieldsDialog
          open
          fields={fields}
          available={availableFields(schema.data)}
          onCancel={() => setDialog(undefined)}
          onOk={(chosen) => {
            setDialog(undefined);
            onChange(withFields(search, chosen));
          }}
        />
      )}
      {dialog === 'filters' && (
        <FiltersDialog
          open
          filters={request.filters ?? []}
          parameters={parameters.data ?? []}
          onCancel={() => setDialog(undefined)}
          onOk={(filters) => {
            setDialog(undefined);
            onChange(withFilters(search, filters));
          }}
        />
      )}
      {dialog === 'export' && (
        <ExportDialog
          request={request}
          schema={schema.data}
          parameters={parameters.data}
          onClose={() => setDialog(undefined)}
        />
      )}
      {menu && (
        <ColumnMenu
          anchor={menu.anchor}
          code={parameterFor(menu.field)?.code ?? menu.field}
          parameters={columnSearchParameters(menu.field, schema.data, parameters.data ?? [])}
          onClose={() => setMenu(undefined)}
          onSort={(descending) => {
            setMenu(undefined);
            onChange(withSort(search, { code: parameterFor(menu.field)?.code ?? menu.field, descending }));
          }}
          onPrompt={(code, operator) => {
            setMenu(undefined);
            setPrompt({ code, operator });
          }}
          onAddFilters={(filters) => {
            setMenu(undefined);
            addFilters(filters);
          }}
        />
      )}
      {prompt && (
        <FilterPromptDialog
          code={prompt.code}
          operator={prompt.operator}
          parameterType={parameters.data?.find((p) => p.code === prompt.code)?.type}
          onCancel={() => setPrompt(undefined)}
          onOk={(value) => {
            setPrompt(undefined);
            addFilters([{ code: prompt.code, operator: prompt.operator, value }]);
          }}
        />
      )}
    </Paper>
  );
}

function sortDirection(rules: ConsoleSearch['request']['sortRules'], code: string): 'asc' | 'desc' | false {
  const rule = rules?.find((r) => r.code === code);
  return rule ? (rule.descending ? 'desc' : 'asc') : false;
}

interface ResultRowModel {
  id: string;
  resource: Resource;
  cells: string[];
  /** The badge colour of a `status` cell (app-spec §4), as the chart's badges have it; undefined elsewhere. */
  colors: (StatusColor | undefined)[];
}

/** A resource's own `status` code, in a `status` column, is shown as a coloured badge. */
function statusCellColor(field: string, resource: Resource): StatusColor | undefined {
  const status = (resource as { status?: unknown }).status;
  return field === 'status' && typeof status === 'string' ? statusColor(status) : undefined;
}

/**
 * One result row; memoised on its model, its selection and stable callbacks. Plain `tr`/`td` and a
 * native checkbox styled by the table (`tableStyle`): a page of 1,000 rows renders and selects
 * without the cost of a styled MUI component per cell. The row is a tab stop that Enter or Space
 * opens (ctrl or meta for the alternate open, as with the mouse): the callers open rows by callback,
 * with no address to put in a link, and a list used without a mouse must still open its records.
 */
const ResultRow = memo(function ResultRow(props: {
  row: ResultRowModel;
  checkbox: boolean;
  selected: boolean;
  onToggle: (id: string) => void;
  onOpen: (event: MouseEvent | KeyboardEvent, resource: Resource) => void;
}) {
  const { row, onOpen } = props;
  return (
    <tr
      data-selected={props.selected || undefined}
      tabIndex={0}
      onClick={(event) => onOpen(event, row.resource)}
      onAuxClick={(event) => event.button === 1 && onOpen(event, row.resource)}
      onKeyDown={(event) => {
        // Space on the row's checkbox selects it; only keys on the row itself open.
        if (event.target !== event.currentTarget || (event.key !== 'Enter' && event.key !== ' ')) return;
        event.preventDefault();
        onOpen(event, row.resource);
      }}
    >
      {props.checkbox && (
        <td className="checkbox-cell">
          <input
            type="checkbox"
            checked={props.selected}
            onChange={() => props.onToggle(row.id)}
            aria-label={`Select ${row.resource.resourceType}/${row.id}`}
          />
        </td>
      )}
      {row.cells.map((text, index) => (
        <td key={index}>
          {row.colors[index] && text ? (
            <span className="status-badge" data-status-color={row.colors[index]}>
              {text}
            </span>
          ) : (
            text
          )}
        </td>
      ))}
    </tr>
  );
});

/** The rows' look, as MUI's small table has it, in one style rule for the whole table. */
function tableStyle(theme: Theme) {
  return {
    colorScheme: theme.palette.mode,
    '& input[type=checkbox]': {
      width: 18,
      height: 18,
      margin: '12px',
      verticalAlign: 'middle',
      accentColor: theme.palette.primary.main,
      cursor: 'pointer',
    },
    '& tbody tr': { cursor: 'pointer' },
    '& tbody tr:hover': { backgroundColor: theme.palette.action.hover },
    '& tbody tr:focus-visible': {
      outline: `2px solid ${theme.palette.primary.main}`,
      outlineOffset: -2,
      backgroundColor: theme.palette.action.focus,
    },
    '& tbody tr[data-selected=true]': {
      backgroundColor: alpha(theme.palette.primary.main, theme.palette.action.selectedOpacity),
    },
    '& tbody td': {
      ...theme.typography.body2,
      padding: '6px 16px',
      borderBottom: `1px solid ${theme.palette.divider}`,
      color: theme.palette.text.primary,
      textAlign: 'left',
    },
    '& tbody td.checkbox-cell': { padding: '0 0 0 4px', width: 48 },
    '& .status-badge': {
      display: 'inline-block',
      padding: '1px 8px',
      borderRadius: 12,
      fontWeight: 600,
      fontSize: '0.8125rem',
    },
    ...Object.fromEntries(
      Object.entries(STATUS_BADGE_PALETTE).map(([color, shades]) => {
        const [background, text] = theme.palette.mode === 'dark' ? shades.dark : shades.light;
        return [`& .status-badge[data-status-color=${color}]`, { backgroundColor: background, color: text }];
      }),
    ),
  };
}
