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
  const key = new TextEncoder().encode(secretKey);
  return {
    sign: ({ userId, sessionId }) =>
      new SignJWT({ sid: sessionId })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(userId))
        .setIssuedAt()
        .setExpirationTime(`${SESSION_TTL_SEC}s`)
        .setAudience('session')
        .sign(key),
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], audience: 'session' });
        const userId = Number(payload.sub);
        const sessionId = payload.sid;
        return Number.isInteger(userId) && userId > 0 && typeof sessionId === 'string' && sessionId
          ? { userId, sessionId }
          : null;
      } catch {
        return null;
      }
    },
    signPayload: (payload, ttlSec, audience) =>
      new SignJWT(payload)
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt()
        .setExpirationTime(`${ttlSec}s`)
        .setAudience(audience)
        .sign(key),
    async verifyPayload(token, audience) {
      try {
        return (await jwtVerify(token, key, { algorithms: ['HS256'], audience })).payload;
      } catch {
        return null;
      }
    },
  };
}
