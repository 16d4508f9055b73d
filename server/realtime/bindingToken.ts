import type { SigningKeys } from '../auth/signingKeys';

/** What a binding token says: which login may bind which subscription. */
export interface BindingClaims {
  loginId: string;
  subscriptionId: string;
}

/** A binding token is good for this long; the client fetches a fresh one after every reconnect. */
export const bindingTokenSeconds = 60 * 60;

/** Marks the token's purpose, so that an access token can never be used to bind (nor the reverse). */
const purpose = 'ws-binding';

/**
 * Signs a binding token with the server's keys: any server process on the same database can verify
 * it, so a client may bind on a process other than the one that issued the token.
 */
export function signBindingToken(keys: SigningKeys, claims: BindingClaims): Promise<string> {
  return keys.sign(
    { purpose, login_id: claims.loginId, subscription_id: claims.subscriptionId, aud: purpose },
    bindingTokenSeconds,
  );
}

/** The claims of a valid binding token, or a message saying why it is not one. */
export async function verifyBindingToken(
  keys: SigningKeys,
  token: unknown,
): Promise<{ claims: BindingClaims } | { problem: string }> {
  if (typeof token !== 'string' || token === '') return { problem: 'Missing token' };
  let payload;
  try {
    payload = await keys.verify(token);
  } catch (error) {
    return { problem: (error as Error).message === 'Token expired' ? 'Token expired' : 'Invalid token' };
  }
  const { login_id: loginId, subscription_id: subscriptionId } = payload;
  if (payload.purpose !== purpose || typeof loginId !== 'string' || typeof subscriptionId !== 'string') {
    return { problem: 'Invalid token: not a subscription binding token' };
  }
  return { claims: { loginId, subscriptionId } };
}
