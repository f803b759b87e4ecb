import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SignJWT, jwtVerify } from 'jose';

export const ACCESS_TOKEN_SECONDS = 15 * 60;
export const REFRESH_TOKEN_SECONDS = 7 * 24 * 60 * 60;
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

export type Tokens = ReturnType<typeof createTokens>;

/** Signs and verifies both token kinds; the algorithm is pinned and the kind is checked, so neither stands in for the other. */
export function createTokens(secretText: string) {
  // Imported once: handed the raw bytes, jose imports a key on every call, half the cost of a verify.
  const secret = crypto.webcrypto.subtle.importKey('raw', new TextEncoder().encode(secretText), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);

  async function verify(token: string, kind: 'access' | 'refresh') {
    try {
      const { payload } = await jwtVerify(token, await secret, { algorithms: [ALGORITHM], issuer: ISSUER });
      if (payload.typ !== kind || typeof payload.sub !== 'string') return undefined;
      return payload;
    } catch {
      return undefined;
    }
  }

  return {
    async signAccess(claims: AccessClaims): Promise<string> {
      return new SignJWT({ typ: 'access', cid: claims.companyId, fam: claims.family })
        .setProtectedHeader({ alg: ALGORITHM })
        .setSubject(String(claims.userId))
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(`${ACCESS_TOKEN_SECONDS}s`)
        .sign(await secret);
    },
    async signRefresh(claims: RefreshClaims): Promise<string> {
      return new SignJWT({ typ: 'refresh', fam: claims.family })
        .setProtectedHeader({ alg: ALGORITHM })
        .setSubject(String(claims.userId))
        .setJti(claims.jti)
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(`${REFRESH_TOKEN_SECONDS}s`)
        .sign(await secret);
    },
    async verifyAccess(token: string): Promise<AccessClaims | undefined> {
      const payload = await verify(token, 'access');
      if (!payload || typeof payload.cid !== 'number' || typeof payload.fam !== 'string') return undefined;
      return { userId: Number(payload.sub), companyId: payload.cid, family: payload.fam };
    },
    async verifyRefresh(token: string): Promise<RefreshClaims | undefined> {
      const payload = await verify(token, 'refresh');
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
