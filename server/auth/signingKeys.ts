import { randomUUID } from 'node:crypto';
import {
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  SignJWT,
  errors as joseErrors,
  type JWK,
  type JWTPayload,
} from 'jose';
import type { SqlExecutor } from '../storage/database';
import { readState } from '../storage/serverState';

const algorithm = 'ES256';

interface StoredKey {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

export type TokenFailure = 'expired' | 'invalid';

export class TokenError extends Error {
  constructor(
    readonly reason: TokenFailure,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The server's token signing key: generated on first start and kept in the database, so that every
 * server process on one database signs and verifies with the same key.
 */
export class SigningKeys {
  private constructor(
    private readonly stored: StoredKey,
    private readonly privateKey: CryptoKey,
    private readonly publicKey: CryptoKey,
    readonly issuer: string,
  ) {}

  static async load(db: SqlExecutor, issuer: string): Promise<SigningKeys> {
    let stored = await readState<StoredKey>(db, 'signingKey');
    if (!stored) {
      const pair = await generateKeyPair(algorithm, { extractable: true });
      const kid = randomUUID();
      stored = {
        kid,
        privateJwk: await exportJWK(pair.privateKey),
        publicJwk: { ...(await exportJWK(pair.publicKey)), kid, alg: algorithm, use: 'sig' },
      };
      // Another process may have won the race; whatever is stored first is the key.
      await db.query(
        `INSERT INTO server_state (key, value) VALUES ('signingKey', $1::jsonb) ON CONFLICT (key) DO NOTHING`,
        [JSON.stringify(stored)],
      );
      stored = (await readState<StoredKey>(db, 'signingKey')) as StoredKey;
    }
    const privateKey = (await importJWK(stored.privateJwk, algorithm)) as CryptoKey;
    const publicKey = (await importJWK(stored.publicJwk, algorithm)) as CryptoKey;
    return new SigningKeys(stored, privateKey, publicKey, issuer);
  }

  /** The public half, as served at /.well-known/jwks.json. */
  jwks(): { keys: JWK[] } {
    return { keys: [this.stored.publicJwk] };
  }

  async sign(claims: JWTPayload, expiresInSeconds: number): Promise<string> {
    return new SignJWT(claims)
      .setProtectedHeader({ alg: algorithm, kid: this.stored.kid, typ: 'JWT' })
      .setIssuer(this.issuer)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + expiresInSeconds)
      .sign(this.privateKey);
  }

  /** Verifies signature, issuer and expiry; throws TokenError('expired' | 'invalid'). */
  async verify(token: string): Promise<JWTPayload> {
    try {
      const { payload } = await jwtVerify(token, this.publicKey, { issuer: this.issuer, algorithms: [algorithm] });
      return payload;
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw new TokenError('expired', 'Token expired');
      throw new TokenError('invalid', 'Unauthorized');
    }
  }
}
