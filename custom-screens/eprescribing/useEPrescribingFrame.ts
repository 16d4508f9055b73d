import { useCallback, useEffect, useRef, useState } from 'react';
import { normalizeErrorString } from '../../data-provider/outcomes';
import { useShellClient, useToast } from '../../src/shell';
import { iframeBot, iframeUrlOf, missingSecretsOf, notificationCountsBot, patientSyncBot } from './ePrescribingAnswers';

export type EPrescribingFrame =
  | { phase: 'loading' }
  | { phase: 'ready'; url: string }
  | { phase: 'not-configured'; missing: string[] }
  | { phase: 'error'; message: string };

/**
 * The e-prescribing frame's address (app-spec §4): the patient synced to DoseSpot first (when
 * there is a patient), then the iframe address, asked for once per patient; "Success" after each.
 * `retry` asks again after a failure (DoseSpot down, or the network back).
 */
export function useEPrescribingFrame(patientId: string | undefined): { frame: EPrescribingFrame; retry: () => void } {
  const client = useShellClient();
  const toast = useToast();
  const [state, setState] = useState<EPrescribingFrame>({ phase: 'loading' });
  const [attempt, setAttempt] = useState(0);
  // Once per patient (and attempt), even when React runs the effect twice (StrictMode) or the page re-renders.
  const requested = useRef<string | undefined>(undefined);
  useEffect(() => {
    const key = `${patientId ?? ''}#${attempt}`;
    if (requested.current === key) return;
    requested.current = key;
    setState({ phase: 'loading' });
    (async (): Promise<EPrescribingFrame> => {
      const input = patientId ? { patientId } : {};
      if (patientId) {
        // The sync talks to DoseSpot's API: when DoseSpot cannot be reached it fails here, before a frame.
        const synced = await client.executeBot(patientSyncBot, input);
        const missing = missingSecretsOf(synced);
        if (missing) return { phase: 'not-configured', missing };
        toast.success('Success');
      } else {
        // Without a patient nothing has asked DoseSpot yet: the iframe bot only signs an address, so
        // an unreachable DoseSpot would show as the browser's broken-frame page. The counts (the
        // notifications this frame opens on) ask DoseSpot, and their failure is said in words.
        const counts = await client.executeBot(notificationCountsBot, {});
        const missing = missingSecretsOf(counts);
        if (missing) return { phase: 'not-configured', missing };
      }
      const answer = await client.executeBot(iframeBot, input);
      const missing = missingSecretsOf(answer);
      if (missing) return { phase: 'not-configured', missing };
      const url = iframeUrlOf(answer);
      if (!url) return { phase: 'error', message: 'The DoseSpot iframe bot did not answer an address' };
      toast.success('Success');
      return { phase: 'ready', url };
    })().then(setState, (error: unknown) => setState({ phase: 'error', message: normalizeErrorString(error) }));
  }, [client, toast, patientId, attempt]);
  const retry = useCallback(() => setAttempt((count) => count + 1), []);
  return { frame: state, retry };
}
