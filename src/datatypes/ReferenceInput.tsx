import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Autocomplete, Box, MenuItem, TextField } from '@mui/material';
import type { Reference, Resource, ResourceType } from '@medplum/fhirtypes';
import { getDisplayString } from '../../data-provider/formatting';
import { knownResourceTypes } from '../../data-provider/rules';
import { useFhirClient } from '../resources/useFhirClient';
import { inputId, type InputProps } from './inputProps';
import { REFERENCE_SEARCH_COUNT, referenceSearchField, referenceTargetTypes } from './referenceSearch';
import { useDebounced } from './useValueSetOptions';

/** Reference: choose the target type, then search it by its type-specific field (`_count` 10). */
export function ReferenceInput(props: InputProps<Reference> & { targetProfiles: readonly string[] }) {
  const client = useFhirClient();
  const targets = referenceTargetTypes(props.targetProfiles);
  const typeChoices = targets.length ? targets : [...knownResourceTypes];
  const current = props.value?.reference?.split('/')[0];
  const [targetType, setTargetType] = useState(current && typeChoices.includes(current) ? current : typeChoices[0]);
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const filter = useDebounced(text);
  const results = useQuery<Resource[], Error>({
    queryKey: ['hearth-reference-search', targetType, filter],
    queryFn: ({ signal }) =>
      client.searchResources(
        targetType as ResourceType,
        { ...(filter ? { [referenceSearchField(targetType)]: filter } : {}), _count: String(REFERENCE_SEARCH_COUNT) },
        { signal },
      ),
    enabled: open,
    retry: false,
  });
  const options: Reference[] = (results.data ?? []).map((resource) => ({
    reference: `${resource.resourceType}/${resource.id}`,
    display: getDisplayString(resource),
  }));
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
      {typeChoices.length > 1 && (
        <TextField
          select
          size="small"
          label={`${props.label} type`}
          id={inputId(`${props.path}-type`)}
          value={targetType}
          disabled={props.disabled}
          onChange={(event) => setTargetType(event.target.value)}
          sx={{ minWidth: 160 }}
        >
          {typeChoices.map((type) => (
            <MenuItem key={type} value={type}>
              {type}
            </MenuItem>
          ))}
        </TextField>
      )}
      <Autocomplete<Reference, false, false, false>
        id={inputId(props.path)}
        sx={{ flex: '1 1 240px' }}
        open={open}
        onOpen={() => setOpen(true)}
        onClose={() => setOpen(false)}
        options={options}
        loading={results.isFetching}
        noOptionsText="Nothing found"
        disabled={props.disabled}
        value={props.value ?? null}
        filterOptions={(x) => x}
        getOptionLabel={(option) =>
          option.display ? `${option.display} (${option.reference})` : (option.reference ?? '')
        }
        isOptionEqualToValue={(a, b) => a.reference === b.reference}
        onInputChange={(_event, value, reason) => reason === 'input' && setText(value)}
        onChange={(_event, value) => props.onChange(value ?? undefined)}
        ListboxProps={{ style: { maxHeight: 320 } }}
        renderInput={(params) => (
          <TextField
            {...params}
            size="small"
            label={props.label}
            required={props.required}
            error={!!props.error}
            helperText={props.error}
          />
        )}
      />
    </Box>
  );
}
