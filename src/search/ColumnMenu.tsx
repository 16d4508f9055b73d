import { Divider, ListItemText, Menu, MenuItem } from '@mui/material';
import type { Filter, Operator } from '../../data-provider/search';
import {
  DATE_HELPERS,
  dateHelperFilters,
  filterOperatorsFor,
  isFilterableType,
  OPERATOR_LABELS,
  unknownSearchParameterTypeMessage,
} from '../../schema-engine';
import type { SearchParameterModel } from '../resources/typeSchema';

/** A column header's menu: sort both ways, then the filter operators of the column's search parameter. */
export function ColumnMenu(props: {
  anchor: HTMLElement | null;
  code: string;
  parameter: SearchParameterModel | undefined;
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
      {parameter && !isFilterableType(parameter.type) && (
        <MenuItem disabled>
          <ListItemText primary={unknownSearchParameterTypeMessage(parameter.type)} />
        </MenuItem>
      )}
      {parameter &&
        filterOperatorsFor(parameter.type).map((operator) => (
          <MenuItem key={operator} onClick={() => props.onPrompt(operator)}>
            {capitalize(OPERATOR_LABELS[operator] ?? operator)}...
          </MenuItem>
        ))}
      {isDate && <Divider />}
      {isDate &&
        DATE_HELPERS.map((helper) => (
          <MenuItem key={helper.key} onClick={() => props.onAddFilters(dateHelperFilters(props.code, helper.key))}>
            {helper.label}
          </MenuItem>
        ))}
    </Menu>
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
