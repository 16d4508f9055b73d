import { Box, Paper, Typography } from '@mui/material';
import type { Task } from '@medplum/fhirtypes';
import { noteCitation, notesNewestFirst } from './taskNotes';

/** The Notes tab: newest first, each with who wrote it and when. */
export function TaskNotes({ task }: { task: Task }) {
  const notes = notesNewestFirst(task.note);
  if (notes.length === 0) return <Typography>No notes yet. Add one from Task Actions.</Typography>;
  return (
    <Box component="ol" aria-label="Notes" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
      {notes.map((note, index) => (
        <Paper component="li" variant="outlined" key={`${note.time ?? ''}-${index}`} sx={{ p: 1.5 }}>
          <Typography sx={{ whiteSpace: 'pre-wrap' }}>{note.text}</Typography>
          <Typography component="cite" variant="caption" color="text.secondary" sx={{ fontStyle: 'normal' }}>
            {noteCitation(note)}
          </Typography>
        </Paper>
      ))}
    </Box>
  );
}
