import { useEffect, useState } from 'react';
import type { LaunchPatientOption } from '../../data-provider/client';
import type { SignInFlow } from './useSignIn';

/** Wait this long after the last keystroke before searching. */
const typingPauseMs = 250;

/**
 * The patients matching `text` for the consent step of a standalone launch, searched as the
 * person signing in (their access policy decides). A failed search shows as `error`, not as a
 * silent empty list.
 */
export function useLaunchPatientSearch(flow: SignInFlow, text: string) {
  const [options, setOptions] = useState<LaunchPatientOption[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string>();
  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    const timer = setTimeout(() => {
      flow.searchLaunchPatients(text.trim(), controller.signal).then(
        (patients) => {
          setOptions(patients);
          setError(undefined);
          setLoading(false);
        },
        (failure: unknown) => {
          if (controller.signal.aborted) return;
          setError(failure instanceof Error ? failure.message : 'The patient search failed');
          setLoading(false);
        },
      );
    }, typingPauseMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // The flow object changes on every render; the search depends on the text only.
  }, [text]);
  return { options, loading, error };
}
