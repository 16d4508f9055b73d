/**
 * What the e-prescribing page tells the clinician when a DoseSpot bot failed. The bots reach
 * DoseSpot through the server's bot `fetch`, whose errors are technical ("fetch: cannot resolve
 * my.staging.dosespot.com", "connect ECONNREFUSED ..."); the page says in words that DoseSpot
 * cannot be reached, and offers the deploy command only when the bots really are missing.
 */
export interface EPrescribingFailure {
  kind: 'unreachable' | 'bots-missing' | 'other';
  title: string;
  /** The sentence for the clinician; the bot's own message is shown under it. */
  summary?: string;
}

// Network failures of the server's bot fetch (server/bots/botFetch.ts) and of Node's sockets.
const UNREACHABLE =
  /fetch: cannot resolve|fetch failed|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|socket hang up|operation was aborted|timed out/i;

const HOST = /cannot resolve ([\w.-]+)|(?:https?:\/\/)?((?:[\w-]+\.)*dosespot\.com)/i;

export function describeEPrescribingFailure(message: string): EPrescribingFailure {
  if (UNREACHABLE.test(message)) {
    const match = HOST.exec(message);
    const host = match?.[1] ?? match?.[2];
    return {
      kind: 'unreachable',
      title: 'DoseSpot cannot be reached from here',
      summary:
        `This server could not connect to DoseSpot${host ? ` (${host})` : ''}, so e-prescribing is unavailable ` +
        'for now. Ask an administrator to check the server’s internet access and the DOSESPOT_BASE_URL ' +
        'secret, then try again.',
    };
  }
  if (/No Bot with identifier/i.test(message)) {
    return { kind: 'bots-missing', title: 'DoseSpot could not be opened' };
  }
  return { kind: 'other', title: 'DoseSpot could not be opened' };
}
