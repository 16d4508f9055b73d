import { useCallback } from 'react';
import { useSnackbar } from 'notistack';

/**
 * Red toast for sign-in failures that are not the server's answer (no connection, ...). Uses the
 * app's toast area (notistack's provider, set up around every page by the shell).
 */
export function useSignInToast(): (message: string) => void {
  const { enqueueSnackbar } = useSnackbar();
  return useCallback((message: string) => void enqueueSnackbar(message, { variant: 'error' }), [enqueueSnackbar]);
}
