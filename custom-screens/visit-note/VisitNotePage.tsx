import { Typography } from '@mui/material';

/** Scaffold: replaced by the screen's owner in this session. */
export function VisitNotePage() {
  return <Typography sx={{ p: 2 }}>VisitNotePage</Typography>;
}
