import { useState } from 'react';
import { List, ListItem, ListItemButton, ListItemText, Stack, TextField, Typography } from '@mui/material';
import { matchingMemberships, type SignInFlow } from '../useSignIn';

/** Choose profile: a search box and at most 10 matching memberships, or "Nothing found...". */
export function ChooseProfileStep({ flow }: { flow: SignInFlow }) {
  const [search, setSearch] = useState('');
  const matches = matchingMemberships(flow.state.memberships, search);
  return (
    <Stack spacing={2}>
      <Typography variant="h6" component="h2">
        Choose profile
      </Typography>
      <TextField
        label="Search"
        type="search"
        size="small"
        autoFocus
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      {matches.length === 0 ? (
        <Typography color="text.secondary">Nothing found...</Typography>
      ) : (
        <List aria-label="Profiles" disablePadding>
          {matches.map((membership) => (
            <ListItem key={membership.id} disablePadding>
              <ListItemButton onClick={() => void flow.chooseProfile(membership.id)} disabled={flow.state.busy}>
                <ListItemText primary={membership.profile} secondary={membership.project} />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      )}
    </Stack>
  );
}
