import { useEffect, useState } from 'react';
import { normalizeErrorString } from '../../data-provider/outcomes';
import { useShellClient } from '../../src/shell';
import {
  missingSecretsOf,
  notificationCountsBot,
  NOTIFICATION_POLL_MS,
  sumNotificationCounts,
} from './ePrescribingAnswers';

export interface EPrescribingCounts {
  /** The badge's number; undefined until the first answer. */
  count?: number;
  /** The project has not set its DoseSpot secrets: nothing to poll. */
  notConfigured?: boolean;
  /** Polling stopped on this error (app-spec §7: it stops on error). */
  error?: string;
}

/** The bell's count: the counts bot, right away and every 10 s while enabled; it stops on the first error. */
export function useEPrescribingCounts(enabled: boolean): EPrescribingCounts {
  const client = useShellClient();
  const [state, setState] = useState<EPrescribingCounts>({});
  useEffect(() => {
    if (!enabled) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let active = true;
    const poll = async () => {
      try {
        const answer = await client.executeBot(notificationCountsBot, {});
        if (!active) return;
        if (missingSecretsOf(answer)) {
          setState({ notConfigured: true });
          return;
        }
        setState({ count: sumNotificationCounts(answer) });
        timer = setTimeout(() => void poll(), NOTIFICATION_POLL_MS);
      } catch (error) {
        if (active) setState((previous) => ({ ...previous, error: normalizeErrorString(error) }));
      }
    };
    void poll();
    return () => {
      active = false;
      clearTimeout(timer);
    };
  }, [client, enabled]);
  return state;
}
