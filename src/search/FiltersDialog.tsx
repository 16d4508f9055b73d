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
import { filterOperatorsFor, isFilterableType, OPERATOR_LABELS } from '../../schema-engine';
import type { SearchParameterModel } from '../resources/typeSchema';

/** Filters dialog of app-spec §2.6: a Field / Operation / Value table with add and delete, OK. */
export function FiltersDialog(props: {
  open: boolean;
  filters: Filter[];
  parameters: SearchParameterModel[];
  onOk: (filters: Filter[]) => void;
  onCancel: () => void;
}) {
  const [rows, setRows] = useState<Filter[]>(props.filters);
  const typeOf = (code: string) => props.parameters.find((p) => p.code === code)?.type;
  const update = (index: number, change: Partial<Filter>) =>
    setRows((current) => current.map((row, i) => (i === index ? { ...row, ...change } : row)));
  return (
    <Dialog
      open={props.open}
      onClose={props.onCancel}
      maxWidth="md"
      fullWidth
      TransitionProps={{ onEnter: () => setRows(props.filters) }}
    >
      <DialogTitle>Filters</DialogTitle>
      <DialogContent>
        <Table size="small">
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
              const operators = filterOperatorsFor(typeOf(row.code));
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
                        update(index, { code, operator: filterOperatorsFor(typeOf(code))[0] ?? Operator.EQUALS });
                      }}
                    >
                      {props.parameters
                        .filter((parameter) => isFilterableType(parameter.type))
                        .map((parameter) => (
                          <MenuItem key={parameter.code} value={parameter.code}>
                            {parameter.code}
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
                      value={operators.includes(row.operator) ? row.operator : operators[0]}
                      onChange={(event) => update(index, { operator: event.target.value as Operator })}
                    >
                      {operators.map((operator) => (
                        <MenuItem key={operator} value={operator}>
                          {OPERATOR_LABELS[operator] ?? operator}
                        </MenuItem>
                      ))}
                    </TextField>
                  </TableCell>
                  <TableCell>
                    <TextField
                      size="small"
                      fullWidth
                      label={`Value ${index + 1}`}
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
                code: props.parameters[0]?.code ?? '_id',
                operator: filterOperatorsFor(props.parameters[0]?.type)[0] ?? Operator.EQUALS,
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
        <Button variant="contained" onClick={() => props.onOk(rows.filter((row) => row.code && row.value !== ''))}>
          OK
        </Button>
      </DialogActions>
    </Dialog>
  );
}
