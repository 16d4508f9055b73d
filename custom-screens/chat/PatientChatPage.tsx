import { Typography } from '@mui/material';

/** Scaffold: replaced by the screen's owner in this session. */
export function PatientChatPage() {
  return <Typography sx={{ p: 2 }}>PatientChatPage</Typography>;
}
