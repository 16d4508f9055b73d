import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Autocomplete, Box, MenuItem, TextField, Typography } from '@mui/material';
import type { Reference, Resource, ResourceType } from '@medplum/fhirtypes';
import { getDisplayString } from '../../data-provider/formatting';
import { knownResourceTypes } from '../../data-provider/rules';
import { useFhirClient } from '../resources/useFhirClient';
import { inputId, type InputProps } from './inputProps';
import { referenceTypeChoices } from './likelyReferenceTypes';
import { referenceOptionDetail, referenceValueLabel } from './referenceOptionLabel';
import { REFERENCE_SEARCH_COUNT, referenceSearchField, referenceTargetTypes } from './referenceSearch';
import { keepEnterInField, useDebounced } from './useValueSetOptions';

/**
 * Reference: choose the target type, then search it by its type-specific field (`_count` 10).
 * A reference to any type opens on the type its element most likely means (Task.for → Patient),
 * with the likely types listed first.
 *
 * The chosen value reads as its display alone; each option shows the display and, on a quiet
 * second line, what tells it from others of the same name (a patient's birth date, age, gender and
 * MRN). The full reference stays in the option's `title`, for administrators.
 */
export function ReferenceInput(props: InputProps<Reference> & { targetProfiles: readonly string[] }) {
  const client = useFhirClient();
  const targets = referenceTargetTypes(props.targetProfiles);
  const { likely, others } = referenceTypeChoices(props.path, targets, knownResourceTypes);
  const typeChoices = [...likely, ...others];
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
  const found = results.data ?? [];
  const options: Reference[] = found.map((resource) => ({
    reference: `${resource.resourceType}/${resource.id}`,
    display: getDisplayString(resource),
  }));
  // The second line of each option, by reference (options stay plain References: they are the value).
  const details = new Map(
    found.map((resource) => [`${resource.resourceType}/${resource.id}`, referenceOptionDetail(resource)]),
  );
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
          {/* Select turns every child into an option, so the likely types are set apart by a rule, not a heading. */}
          {typeChoices.map((type, index) => (
            <MenuItem key={type} value={type} divider={index === likely.length - 1 && others.length > 0}>
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
        onKeyDown={keepEnterInField}
        options={options}
        loading={results.isFetching}
        noOptionsText="Nothing found"
        disabled={props.disabled}
        value={props.value ?? null}
        filterOptions={(x) => x}
        getOptionLabel={referenceValueLabel}
        // Two patients may share a name: the label no longer tells options apart, the reference does.
        getOptionKey={(option) => option.reference ?? ''}
        renderOption={({ key, ...optionProps }, option) => {
          const detail = details.get(option.reference ?? '');
          return (
            <li key={key} {...optionProps} title={option.reference}>
              <Box sx={{ minWidth: 0 }}>
                <div>{referenceValueLabel(option)}</div>
                {detail && (
                  <Typography component="div" variant="body2" color="text.secondary">
                    {detail}
                  </Typography>
                )}
              </Box>
            </li>
          );
        }}
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
