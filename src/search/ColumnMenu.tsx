import { Fragment } from 'react';
import { Divider, ListItemText, ListSubheader, Menu, MenuItem } from '@mui/material';
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
import { sortLabels } from './sortLabels';

const isDateType = (type: string | undefined) => type === 'date' || type === 'datetime' || type === 'dateTime';

/**
 * A column header's menu: sort both ways, then the filter operators of the column's search
 * parameter (app-spec §5) and, for dates, the shortcuts. A choice column (Observation `value[x]`)
 * has a parameter per type: each gets its own group, headed by its code.
 */
export function ColumnMenu(props: {
  anchor: HTMLElement | null;
  code: string;
  parameters: readonly SearchParameterModel[];
  onClose: () => void;
  onSort: (descending: boolean) => void;
  onPrompt: (code: string, operator: Operator) => void;
  onAddFilters: (filters: Filter[]) => void;
}) {
  const { parameters } = props;
  const labels = sortLabels(parameters[0]?.type);
  const grouped = parameters.length > 1;
  return (
    <Menu anchorEl={props.anchor} open={!!props.anchor} onClose={props.onClose}>
      <MenuItem onClick={() => props.onSort(false)}>{labels.ascending}</MenuItem>
      <MenuItem onClick={() => props.onSort(true)}>{labels.descending}</MenuItem>
      <Divider />
      {parameters.length === 0 && (
        <MenuItem disabled>
          <ListItemText primary={`No search parameter "${props.code}": filtering unavailable`} />
        </MenuItem>
      )}
      {parameters.map((parameter, index) => (
        <Fragment key={parameter.code}>
          {grouped && index > 0 && <Divider />}
          {grouped && <ListSubheader>{parameter.code}</ListSubheader>}
          {!isFilterableType(parameter.type) && (
            <MenuItem disabled>
              <ListItemText primary={unknownSearchParameterTypeMessage(parameter.type)} />
            </MenuItem>
          )}
          {filterOperatorsFor(parameter.type).map((operator) => (
            <MenuItem
              key={operator}
              aria-label={grouped ? `${parameter.code} ${OPERATOR_LABELS[operator] ?? operator}...` : undefined}
              onClick={() => props.onPrompt(parameter.code, operator)}
            >
              {capitalize(OPERATOR_LABELS[operator] ?? operator)}...
            </MenuItem>
          ))}
          {isDateType(parameter.type) && <Divider />}
          {isDateType(parameter.type) &&
            DATE_HELPERS.map((helper) => (
              <MenuItem
                key={helper.key}
                aria-label={grouped ? `${parameter.code} ${helper.label}` : undefined}
                onClick={() => props.onAddFilters(dateHelperFilters(parameter.code, helper.key))}
              >
                {helper.label}
              </MenuItem>
            ))}
        </Fragment>
      ))}
    </Menu>
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
