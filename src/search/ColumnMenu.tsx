import { Divider, ListItemText, Menu, MenuItem } from '@mui/material';
import type { SearchParameter } from '@medplum/fhirtypes';
import type { Filter, Operator } from '../../data-provider/search';
import { dateHelpers, OPERATOR_LABELS, operatorsFor } from './filterOperators';

/** A column header's menu: sort both ways, then the filter operators of the column's search parameter. */
export function ColumnMenu(props: {
  anchor: HTMLElement | null;
  code: string;
  parameter: SearchParameter | undefined;
  onClose: () => void;
  onSort: (descending: boolean) => void;
  onPrompt: (operator: Operator) => void;
  onAddFilters: (filters: Filter[]) => void;
}) {
  const { parameter } = props;
  const isDate = parameter?.type === 'date';
  return (
    <Menu anchorEl={props.anchor} open={!!props.anchor} onClose={props.onClose}>
      <MenuItem onClick={() => props.onSort(false)}>{isDate ? 'Sort Oldest to Newest' : 'Sort A to Z'}</MenuItem>
      <MenuItem onClick={() => props.onSort(true)}>{isDate ? 'Sort Newest to Oldest' : 'Sort Z to A'}</MenuItem>
      <Divider />
      {!parameter && (
        <MenuItem disabled>
          <ListItemText primary={`No search parameter "${props.code}": filtering unavailable`} />
        </MenuItem>
      )}
      {parameter &&
        operatorsFor(parameter.type).map((operator) => (
          <MenuItem key={operator} onClick={() => props.onPrompt(operator)}>
            {capitalize(OPERATOR_LABELS[operator] ?? operator)}...
          </MenuItem>
        ))}
      {isDate && <Divider />}
      {isDate &&
        dateHelpers(new Date()).map((helper) => (
          <MenuItem
            key={helper.label}
            onClick={() => props.onAddFilters(helper.filters.map((filter) => ({ code: props.code, ...filter })))}
          >
            {helper.label}
          </MenuItem>
        ))}
    </Menu>
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
