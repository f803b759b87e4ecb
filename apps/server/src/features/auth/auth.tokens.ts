import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createSigner, createVerifier } from 'fast-jwt';

export const ACCESS_TOKEN_SECONDS = 15 * 60;
export const REFRESH_TOKEN_SECONDS = 7 * 24 * 60 * 60;
/** How long after a sign-in its proof of the password stands in for it at the forced change. */
export const PASSWORD_PROOF_SECONDS = 10 * 60;
const ALGORITHM = 'HS256';
const ISSUER = 'siteboard';

export interface AccessClaims {
  userId: number;
  companyId: number;
  /** The login (refresh-token family) this access token belongs to: revoking it ends the access token too. */
  family: string;
}
export interface RefreshClaims {
  userId: number;
  jti: string;
  family: string;
}

/** A sign-in with a password a user must change: who, which login, and which password (a digest of its hash). */
export interface PasswordProofClaims {
  userId: number;
  family: string;
  passwordDigest: string;
}

export type Tokens = ReturnType<typeof createTokens>;

/**
 * Signs and verifies both token kinds; the algorithm is pinned and the kind is checked, so neither
 * stands in for the other. Every request verifies one, so it is done in place with node:crypto:
 * WebCrypto's verify (jose) is a thread-pool job, whose hand-offs cost more than the HMAC itself
 * (decision record 006).
 */
export function createTokens(secret: string) {
  // A token without `exp` would never end: both kinds must carry one (decision record 052).
  const verifyToken = createVerifier({ key: secret, algorithms: [ALGORITHM], allowedIss: ISSUER, requiredClaims: ['exp'] });
  const signAccessToken = createSigner({ key: secret, algorithm: ALGORITHM, iss: ISSUER, expiresIn: ACCESS_TOKEN_SECONDS * 1000 });
  const signRefreshToken = createSigner({ key: secret, algorithm: ALGORITHM, iss: ISSUER, expiresIn: REFRESH_TOKEN_SECONDS * 1000 });

  const signPasswordProofToken = createSigner({ key: secret, algorithm: ALGORITHM, iss: ISSUER, expiresIn: PASSWORD_PROOF_SECONDS * 1000 });

  function verify(token: string, kind: 'access' | 'refresh' | 'password-proof'): Record<string, unknown> | undefined {
    try {
      const payload: unknown = verifyToken(token);
      if (typeof payload !== 'object' || payload === null) return undefined;
      const claims = payload as Record<string, unknown>;
      return claims.typ === kind && typeof claims.sub === 'string' ? claims : undefined;
    } catch {
      return undefined;
    }
  }

  return {
    signAccess(claims: AccessClaims): string {
      return signAccessToken({ typ: 'access', cid: claims.companyId, fam: claims.family, sub: String(claims.userId) });
    },
    signRefresh(claims: RefreshClaims): string {
      return signRefreshToken({ typ: 'refresh', fam: claims.family, sub: String(claims.userId), jti: claims.jti });
    },
    signPasswordProof(claims: PasswordProofClaims): string {
      return signPasswordProofToken({ typ: 'password-proof', fam: claims.family, sub: String(claims.userId), pwd: claims.passwordDigest });
    },
    verifyPasswordProof(token: string): PasswordProofClaims | undefined {
      const payload = verify(token, 'password-proof');
      if (!payload || typeof payload.fam !== 'string' || typeof payload.pwd !== 'string') return undefined;
      return { userId: Number(payload.sub), family: payload.fam, passwordDigest: payload.pwd };
    },
    verifyAccess(token: string): AccessClaims | undefined {
      const payload = verify(token, 'access');
      if (!payload || typeof payload.cid !== 'number' || typeof payload.fam !== 'string') return undefined;
      return { userId: Number(payload.sub), companyId: payload.cid, family: payload.fam };
    },
    verifyRefresh(token: string): RefreshClaims | undefined {
      const payload = verify(token, 'refresh');
      if (!payload || typeof payload.fam !== 'string' || typeof payload.jti !== 'string') return undefined;
      return { userId: Number(payload.sub), jti: payload.jti, family: payload.fam };
    },
  };
}

/** Without JWT_SECRET, a secret is generated once and kept beside the data, so restarts keep sessions. */
export function loadOrCreateSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'jwt-secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = crypto.randomBytes(48).toString('base64url');
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
