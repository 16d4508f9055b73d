import type { SqlExecutor } from '../storage/database';
import { totpStep } from './totp';

export type TotpCheck = 'accepted' | 'invalid' | 'used';

/**
 * Checks a two-factor code and uses it up: a code is accepted once per account (RFC 6238 §5.2), so
 * one seen over a shoulder or relayed by a phishing page is worth nothing once its owner has
 * typed it. The step is claimed by an insert on the account's primary key, so two requests racing
 * with the same code cannot both pass; steps older than the drift window are forgotten.
 */
export async function useTotpCode(db: SqlExecutor, userId: string, secret: string, code: string): Promise<TotpCheck> {
  const step = totpStep(secret, code);
  if (step === undefined) return 'invalid';
  await db.query('DELETE FROM mfa_used_steps WHERE user_id = $1 AND step < $2', [userId, step - 2]);
  const claimed = await db.query<{ step: string }>(
    'INSERT INTO mfa_used_steps (user_id, step) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING step',
    [userId, step],
  );
  return claimed.length === 1 ? 'accepted' : 'used';
}

export const usedCodeMessage = 'This code was already used: wait for the next one from your authenticator app';
