import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Autocomplete, ListItemText, TextField } from '@mui/material';
import type { StructureDefinition } from '@medplum/fhirtypes';
import { useDebounced } from '../datatypes/useValueSetOptions';
import { useDefinitionsGeneration } from './schemaHooks';
import { findProfile, listProfiles } from './typeSchema';
import { useFhirClient } from './useFhirClient';

function profileLabel(profile: StructureDefinition): string {
  return profile.title ?? profile.name ?? profile.url ?? '';
}

/**
 * The editor's 'Profiles' picker: the type's profiles (at most 10 at a time, searched by title or
 * name as the user types), or none for the base definition. Not shown for a type without profiles.
 */
export function ProfilePicker(props: {
  resourceType: string;
  value: string | undefined;
  onChange: (url: string | undefined) => void;
}) {
  const { resourceType, value } = props;
  const client = useFhirClient();
  const generation = useDefinitionsGeneration();
  const [text, setText] = useState('');
  const filter = useDebounced(text);
  const profilesMatching = (search: string) => ({
    queryKey: ['hearth-profiles', resourceType, search, generation],
    queryFn: () => listProfiles(client, resourceType, search),
    staleTime: 60_000,
  });
  const options = useQuery({ ...profilesMatching(filter), placeholderData: (previous) => previous });
  // Whether the type has any profile at all decides whether the picker shows (same query as an empty search).
  const unfiltered = useQuery(profilesMatching(''));
  // The chosen profile may not be among the options shown (only 10 are), so its title is read alone.
  const chosen = useQuery({
    queryKey: ['hearth-profile', value, generation],
    queryFn: async () =>
      (await findProfile(client, value as string)) ?? { resourceType: 'StructureDefinition', url: value },
    enabled: !!value,
    staleTime: 60_000,
  });
  if (!value && (unfiltered.data ?? []).length === 0) return null;

  const selected = value ? ((chosen.data as StructureDefinition | undefined) ?? null) : null;
  return (
    <Autocomplete<StructureDefinition>
      size="small"
      sx={{ maxWidth: 480 }}
      options={options.data ?? []}
      value={selected}
      loading={options.isFetching}
      // The server filters by title or name; the list shows what it found.
      filterOptions={(found) => found}
      getOptionLabel={profileLabel}
      getOptionKey={(profile) => profile.url ?? ''}
      // Several profiles can share a title (FHIR's four 'Example Lipid Profile's): the url tells them apart.
      renderOption={(optionProps, profile) => {
        const { key, ...rest } = optionProps as typeof optionProps & { key: string };
        return (
          <li key={key} {...rest}>
            <ListItemText
              primary={profileLabel(profile)}
              secondary={profile.url}
              slotProps={{ secondary: { sx: { wordBreak: 'break-all' } } }}
            />
          </li>
        );
      }}
      isOptionEqualToValue={(option, chosenOption) => option.url === chosenOption.url}
      noOptionsText="Nothing found"
      onInputChange={(_event, input, reason) => setText(reason === 'input' ? input : '')}
      onChange={(_event, profile) => props.onChange(profile?.url)}
      renderInput={(params) => (
        <TextField
          {...params}
          label="Profiles"
          placeholder={`${resourceType} (base definition)`}
          // Shrunk so the placeholder says what an empty choice means.
          InputLabelProps={{ ...params.InputLabelProps, shrink: true }}
        />
      )}
    />
  );
}
