import { useContext, useEffect, useRef } from 'react';
import { UNSAFE_DataRouterContext, useBlocker } from 'react-router-dom';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { DISCARD_PROMPT, leavesPage } from './unsavedChanges';

export interface UnsavedChangesGuardProps {
  /** Asked when the user leaves: read at that moment, so typing costs nothing. */
  isDirty: () => boolean;
}

/**
 * Asks "Discard unsaved changes?" before the user leaves a form holding unsaved changes: in-app
 * navigation (tabs, links, back) through react-router's blocker, a reload or closing the tab through
 * the browser's own beforeunload prompt. Outside a data router (tests, embedding screens) only the latter.
 */
export function UnsavedChangesGuard({ isDirty }: UnsavedChangesGuardProps) {
  const latest = useRef(isDirty);
  latest.current = isDirty;
  useEffect(() => {
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (!latest.current()) return;
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', beforeUnload);
    return () => window.removeEventListener('beforeunload', beforeUnload);
  }, []);
  // useBlocker throws outside a data router; whether there is one never changes while mounted.
  const dataRouter = useContext(UNSAFE_DataRouterContext);
  return dataRouter ? <NavigationPrompt isDirty={latest} /> : null;
}

function NavigationPrompt({ isDirty }: { isDirty: { current: () => boolean } }) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) =>
    leavesPage(currentLocation, nextLocation) ? isDirty.current() : false,
  );
  const open = blocker.state === 'blocked';
  return (
    <Dialog open={open} onClose={() => blocker.reset?.()} aria-labelledby="discard-unsaved-title">
      <DialogTitle id="discard-unsaved-title">{DISCARD_PROMPT}</DialogTitle>
      <DialogContent>
        <DialogContentText>The changes you made in this form have not been saved.</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={() => blocker.reset?.()} autoFocus>
          Keep editing
        </Button>
        <Button color="error" onClick={() => blocker.proceed?.()}>
          Discard
        </Button>
      </DialogActions>
    </Dialog>
  );
}
