import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Autocomplete, Box, InputAdornment, TextField, Typography } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { hitDetail, hitTitle, type SearchHit } from './globalSearch';
import { useGlobalSearch } from './useGlobalSearch';

/**
 * The header's search box (app-spec §2.5, §7): patients by name, identifier or id and service
 * requests by identifier or id; a combobox, so arrow keys move through the suggestions and Enter
 * opens one.
 */
export function GlobalSearch() {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const { hits, loading, error } = useGlobalSearch(text);

  return (
    <Autocomplete<SearchHit, false, false, false>
      sx={{ width: 320, maxWidth: '40vw' }}
      size="small"
      options={text.trim() ? hits : []}
      // The server already filtered; the ranking decides the order.
      filterOptions={(options) => options}
      getOptionLabel={(hit) => hitTitle(hit)}
      isOptionEqualToValue={(option, value) => option.id === value.id}
      loading={loading}
      value={null}
      inputValue={text}
      onInputChange={(_event, value, reason) => {
        if (reason !== 'reset') setText(value);
      }}
      onChange={(_event, hit) => {
        if (!hit) return;
        setText('');
        navigate(`/${hit.resourceType}/${hit.id}`);
      }}
      noOptionsText={error ?? (text.trim() ? 'Nothing found' : 'Type a name, identifier or id')}
      loadingText="Loading..."
      renderOption={({ key, ...props }, hit) => (
        <Box component="li" key={key} {...props}>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="body2" noWrap>
              {hitTitle(hit)}
            </Typography>
            <Typography variant="caption" color="text.secondary" noWrap component="p">
              {hitDetail(hit)}
            </Typography>
          </Box>
        </Box>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          variant="outlined"
          placeholder="Search"
          slotProps={{
            htmlInput: { ...params.inputProps, 'aria-label': 'Search patients and service requests' },
            input: {
              ...params.InputProps,
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
      )}
    />
  );
}
