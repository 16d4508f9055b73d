import { Typography } from '@mui/material';

/** Scaffold: replaced by the screen's owner in this session. */
export function MyTasksPage() {
  return <Typography sx={{ p: 2 }}>MyTasksPage</Typography>;
}
