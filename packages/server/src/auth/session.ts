import { webcrypto } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

/**
 * Session tokens: HS256 JWTs carried in an http-only cookie, naming the user (`sub`) and the
 * server-side session row (`sid`, see sessions.store.ts). The signature turns away forged cookies
 * before any database read.
 */
export const SESSION_COOKIE = 'lantern_session';
export const SESSION_TTL_SEC = 7 * 24 * 3600;

export interface SessionClaims {
  userId: number;
  sessionId: string;
}

export interface SessionSigner {
  sign(claims: SessionClaims): Promise<string>;
  verify(token: string): Promise<SessionClaims | null>;
  /** Signs and verifies other short-lived payloads (the single sign-on state cookie). */
  signPayload(payload: Record<string, unknown>, ttlSec: number, audience: string): Promise<string>;
  verifyPayload(token: string, audience: string): Promise<Record<string, unknown> | null>;
}

export function createSessionSigner(secretKey: string): SessionSigner {
  // Imported once: given the raw bytes, jose imports the key again for every token it signs or
  // checks, which is every request with a session (~40 % of the check's CPU).
  let imported: Promise<webcrypto.CryptoKey> | undefined;
  const cryptoKey = () =>
    (imported ??= webcrypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secretKey),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    ));
  return {
    sign: async ({ userId, sessionId }) =>
      new SignJWT({ sid: sessionId })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(userId))
        .setIssuedAt()
        .setExpirationTime(`${SESSION_TTL_SEC}s`)
        .setAudience('session')
        .sign(await cryptoKey()),
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, await cryptoKey(), { algorithms: ['HS256'], audience: 'session' });
        const userId = Number(payload.sub);
        const sessionId = payload.sid;
        return Number.isInteger(userId) && userId > 0 && typeof sessionId === 'string' && sessionId
          ? { userId, sessionId }
          : null;
      } catch {
        return null;
      }
    },
    signPayload: async (payload, ttlSec, audience) =>
      new SignJWT(payload)
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt()
        .setExpirationTime(`${ttlSec}s`)
        .setAudience(audience)
        .sign(await cryptoKey()),
    async verifyPayload(token, audience) {
      try {
        return (await jwtVerify(token, await cryptoKey(), { algorithms: ['HS256'], audience })).payload;
      } catch {
        return null;
      }
    },
  };
}
