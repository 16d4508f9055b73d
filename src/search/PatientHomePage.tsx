import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Box, Typography } from '@mui/material';
import { SearchControl } from './SearchControl';
import { DEFAULT_SORT, type ConsoleSearch } from './searchState';

const HOME_SEARCH: ConsoleSearch = {
  request: {
    resourceType: 'Patient',
    fields: ['name', 'birthDate', 'gender'],
    sortRules: [DEFAULT_SORT],
    offset: 0,
    count: 20,
    total: 'accurate',
  },
};

/** `/`: the Patient search (name, birth date, gender) without toolbar; a row opens the patient. */
export function PatientHomePage() {
  const navigate = useNavigate();
  const [search, setSearch] = useState(HOME_SEARCH);
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Typography variant="h5" component="h1" sx={{ mb: 1 }}>
        Patients
      </Typography>
      <SearchControl
        search={search}
        onChange={setSearch}
        hideToolbar
        onClick={(patient, alternate) => {
          const link = `/Patient/${patient.id}`;
          if (alternate) window.open(link, '_blank', 'noopener');
          else navigate(link);
        }}
      />
    </Box>
  );
}
