import { useEffect, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { Autocomplete, Box, InputAdornment, TextField, Typography } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { hitDetail, hitTitle, type SearchHit } from './globalSearch';
import { useGlobalSearch } from './useGlobalSearch';

/**
 * The header's search box (app-spec §2.5, §7): patients by name, identifier or id and service
 * requests by identifier or id; a combobox, so arrow keys move through the suggestions and Enter
 * opens one, or the only match when none is highlighted.
 */
export function GlobalSearch() {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const { hits, loading, error, answered } = useGlobalSearch(text);
  // Enter with no suggestion highlighted: the text it was pressed on, until its answer is known.
  const [enterOn, setEnterOn] = useState<string>();

  function open(hit: SearchHit): void {
    setText('');
    navigate(`/${hit.resourceType}/${hit.id}`);
  }

  // Enter opens the only match, also when pressed before the answer arrived; several matches stay listed.
  useEffect(() => {
    if (enterOn === undefined || answered !== enterOn) return;
    setEnterOn(undefined);
    if (hits.length === 1) open(hits[0]);
  }, [enterOn, answered, hits]);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>): void {
    if (event.key !== 'Enter') return;
    const input = event.target as HTMLElement;
    // A highlighted suggestion is the Autocomplete's to open.
    if (input.getAttribute('aria-activedescendant')) return;
    if (text.trim()) setEnterOn(text.trim());
  }

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
        if (hit) open(hit);
      }}
      onKeyDown={onKeyDown}
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
