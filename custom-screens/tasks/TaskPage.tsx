import { Typography } from '@mui/material';

/** Scaffold: replaced by the screen's owner in this session. */
export function TaskPage() {
  return <Typography sx={{ p: 2 }}>TaskPage</Typography>;
}
