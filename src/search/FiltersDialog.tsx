import { useState } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import { Operator, type Filter } from '../../data-provider/search';
import {
  DATE_HELPERS,
  dateHelperFilters,
  filterOperatorsFor,
  isFilterableType,
  OPERATOR_LABELS,
  type DateHelperKey,
} from '../../schema-engine';
import type { SearchParameterModel } from '../resources/typeSchema';
import { parameterLabel, sortedFilterParameters } from './filterFieldOptions';

/** A row of the dialog: a filter, or a date shortcut that becomes its two filters on OK. */
type FilterRow = Filter & { helper?: DateHelperKey };

const helperPrefix = 'helper:';
const isDateType = (type: string | undefined) => type === 'date' || type === 'datetime' || type === 'dateTime';

/** The filters the dialog's rows stand for: shortcuts expanded, rows without a value left out. */
export function filtersOfRows(rows: readonly FilterRow[], now: Date = new Date()): Filter[] {
  return rows.flatMap(({ helper, ...filter }) => {
    if (helper) return filter.code ? dateHelperFilters(filter.code, helper, now) : [];
    return filter.code && filter.value !== '' ? [filter] : [];
  });
}

/**
 * Filters dialog of app-spec §2.6: a Field / Operation / Value table with add and delete, OK. The
 * operations are those of the field's search parameter type (§5); date fields add the shortcuts.
 */
export function FiltersDialog(props: {
  open: boolean;
  filters: Filter[];
  parameters: SearchParameterModel[];
  onOk: (filters: Filter[]) => void;
  onCancel: () => void;
}) {
  const [rows, setRows] = useState<FilterRow[]>(props.filters);
  const filterable = sortedFilterParameters(props.parameters.filter((parameter) => isFilterableType(parameter.type)));
  const typeOf = (code: string) => props.parameters.find((p) => p.code === code)?.type;
  const update = (index: number, change: Partial<FilterRow>) =>
    setRows((current) => current.map((row, i) => (i === index ? { ...row, ...change } : row)));
  return (
    <Dialog
      open={props.open}
      onClose={props.onCancel}
      maxWidth="md"
      fullWidth
      TransitionProps={{ onEnter: () => setRows(props.filters) }}
      aria-labelledby="filters-dialog-title"
    >
      <DialogTitle id="filters-dialog-title">Filters</DialogTitle>
      <DialogContent>
        <Table size="small" aria-label="Filters">
          <TableHead>
            <TableRow>
              <TableCell>Field</TableCell>
              <TableCell>Operation</TableCell>
              <TableCell>Value</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row, index) => {
              const type = typeOf(row.code);
              const operators = filterOperatorsFor(type);
              const operation = row.helper
                ? helperPrefix + row.helper
                : operators.includes(row.operator)
                  ? row.operator
                  : (operators[0] ?? '');
              return (
                <TableRow key={index}>
                  <TableCell>
                    <TextField
                      select
                      size="small"
                      fullWidth
                      label={`Field ${index + 1}`}
                      value={row.code}
                      onChange={(event) => {
                        const code = event.target.value;
                        const operator = filterOperatorsFor(typeOf(code))[0] ?? Operator.EQUALS;
                        update(index, { code, operator, helper: undefined });
                      }}
                    >
                      {filterable.map((parameter) => (
                        <MenuItem key={parameter.code} value={parameter.code}>
                          {parameterLabel(parameter.code)}
                        </MenuItem>
                      ))}
                    </TextField>
                  </TableCell>
                  <TableCell>
                    <TextField
                      select
                      size="small"
                      fullWidth
                      label={`Operation ${index + 1}`}
                      value={operation}
                      onChange={(event) => {
                        const chosen = event.target.value;
                        if (chosen.startsWith(helperPrefix)) {
                          update(index, { helper: chosen.slice(helperPrefix.length) as DateHelperKey, value: '' });
                        } else update(index, { operator: chosen as Operator, helper: undefined });
                      }}
                    >
                      {operators.map((operator, i) => (
                        <MenuItem
                          key={operator}
                          value={operator}
                          divider={isDateType(type) && i === operators.length - 1}
                        >
                          {OPERATOR_LABELS[operator] ?? operator}
                        </MenuItem>
                      ))}
                      {isDateType(type) &&
                        DATE_HELPERS.map((helper) => (
                          <MenuItem key={helper.key} value={helperPrefix + helper.key}>
                            {helper.label}
                          </MenuItem>
                        ))}
                    </TextField>
                  </TableCell>
                  <TableCell>
                    <TextField
                      size="small"
                      fullWidth
                      label={`Value ${index + 1}`}
                      type={row.helper ? 'text' : valueInputType(type)}
                      disabled={!!row.helper}
                      placeholder={row.helper ? 'set by the shortcut' : valuePlaceholder(type)}
                      slotProps={{ inputLabel: { shrink: true } }}
                      value={row.value}
                      onChange={(event) => update(index, { value: event.target.value })}
                    />
                  </TableCell>
                  <TableCell>
                    <IconButton
                      aria-label={`Delete filter ${index + 1}`}
                      onClick={() => setRows((current) => current.filter((_, i) => i !== index))}
                    >
                      <DeleteIcon />
                    </IconButton>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
        <Button
          startIcon={<AddIcon />}
          sx={{ mt: 1 }}
          onClick={() =>
            setRows((current) => [
              ...current,
              {
                code: filterable[0]?.code ?? '_id',
                operator: filterOperatorsFor(filterable[0]?.type)[0] ?? Operator.EQUALS,
                value: '',
              },
            ])
          }
        >
          Add filter
        </Button>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel}>Cancel</Button>
        <Button variant="contained" onClick={() => props.onOk(filtersOfRows(rows))}>
          OK
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Date fields get a date picker (a typed value such as `2024-05` or a dateTime still works in the URL). */
export function valueInputType(type: string | undefined): 'date' | 'number' | 'text' {
  if (isDateType(type)) return 'date';
  if (type === 'number') return 'number';
  return 'text';
}

/** What a value of the type looks like, as the input's placeholder. */
export function valuePlaceholder(type: string | undefined): string {
  switch (type) {
    case 'token':
      return 'code or system|code';
    case 'reference':
      return 'Type/id';
    case 'quantity':
      return 'number or number|system|code';
    case 'uri':
      return 'https://…';
    case 'number':
      return 'number';
    default:
      return '';
  }
}
