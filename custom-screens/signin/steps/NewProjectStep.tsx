import { useState } from 'react';
import { Button, Stack, TextField, Typography } from '@mui/material';
import type { SignInFlow } from '../useSignIn';

/** Create project: Project Name, Submit (an account with no project yet, e.g. just registered). */
export function NewProjectStep({ flow }: { flow: SignInFlow }) {
  const [projectName, setProjectName] = useState('');
  const { busy, fieldErrors } = flow.state;
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void flow.createProject(projectName);
      }}
    >
      <Stack spacing={2}>
        <Typography variant="h6" component="h2">
          Create project
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Your account has no project yet. Name one to start; you will be its administrator.
        </Typography>
        <TextField
          label="Project Name"
          name="projectName"
          required
          autoFocus
          value={projectName}
          onChange={(e) => setProjectName(e.target.value)}
          error={!!fieldErrors.projectName}
          helperText={fieldErrors.projectName}
        />
        <Button type="submit" variant="contained" disabled={busy}>
          Submit
        </Button>
      </Stack>
    </form>
  );
}
