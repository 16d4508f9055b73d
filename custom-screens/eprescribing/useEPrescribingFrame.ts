import { useEffect, useRef, useState } from 'react';
import { normalizeErrorString } from '../../data-provider/outcomes';
import { useShellClient, useToast } from '../../src/shell';
import { iframeBot, iframeUrlOf, missingSecretsOf, patientSyncBot } from './ePrescribingAnswers';

export type EPrescribingFrame =
  | { phase: 'loading' }
  | { phase: 'ready'; url: string }
  | { phase: 'not-configured'; missing: string[] }
  | { phase: 'error'; message: string };

/**
 * The e-prescribing frame's address (app-spec §4): the patient synced to DoseSpot first (when
 * there is a patient), then the iframe address, asked for once per patient; "Success" after each.
 */
export function useEPrescribingFrame(patientId: string | undefined): EPrescribingFrame {
  const client = useShellClient();
  const toast = useToast();
  const [state, setState] = useState<EPrescribingFrame>({ phase: 'loading' });
  // Once per patient, even when React runs the effect twice (StrictMode) or the page re-renders.
  const requested = useRef<string | undefined>(undefined);
  useEffect(() => {
    const key = patientId ?? '';
    if (requested.current === key) return;
    requested.current = key;
    setState({ phase: 'loading' });
    (async (): Promise<EPrescribingFrame> => {
      const input = patientId ? { patientId } : {};
      if (patientId) {
        const synced = await client.executeBot(patientSyncBot, input);
        const missing = missingSecretsOf(synced);
        if (missing) return { phase: 'not-configured', missing };
        toast.success('Success');
      }
      const answer = await client.executeBot(iframeBot, input);
      const missing = missingSecretsOf(answer);
      if (missing) return { phase: 'not-configured', missing };
      const url = iframeUrlOf(answer);
      if (!url) return { phase: 'error', message: 'The DoseSpot iframe bot did not answer an address' };
      toast.success('Success');
      return { phase: 'ready', url };
    })().then(setState, (error: unknown) => setState({ phase: 'error', message: normalizeErrorString(error) }));
  }, [client, toast, patientId]);
  return state;
}
