/** What the Run dialog sends to `$execute`, or the problem with what was typed. */
export type BotRunInput = { ok: true; body: unknown; contentType: string } | { ok: false; problem: string };

export const runContentTypes = ['application/json', 'text/plain'] as const;

export function botRunInput(text: string, contentType: (typeof runContentTypes)[number]): BotRunInput {
  if (contentType === 'text/plain') return { ok: true, body: text, contentType };
  if (text.trim() === '') return { ok: true, body: {}, contentType };
  try {
    return { ok: true, body: JSON.parse(text) as unknown, contentType };
  } catch (error) {
    return { ok: false, problem: `The input is not JSON: ${(error as Error).message}` };
  }
}

/** A bot's answer as text: JSON pretty-printed, text as it is, nothing said plainly. */
export function botRunResultText(result: unknown): string {
  if (result === undefined || result === null || result === '') return '(the bot returned nothing)';
  if (typeof result === 'string') return result;
  return JSON.stringify(result, null, 2);
}
