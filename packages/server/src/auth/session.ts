import { jwtVerify, SignJWT } from 'jose';

/** Session tokens: HS256 JWTs carried in an http-only cookie. */
export const SESSION_COOKIE = 'lantern_session';
export const SESSION_TTL_SEC = 7 * 24 * 3600;

export interface SessionSigner {
  sign(userId: number): Promise<string>;
  verify(token: string): Promise<number | null>;
}

export function createSessionSigner(secretKey: string): SessionSigner {
  const key = new TextEncoder().encode(secretKey);
  return {
    sign: (userId) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(userId))
        .setIssuedAt()
        .setExpirationTime(`${SESSION_TTL_SEC}s`)
        .sign(key),
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        const id = Number(payload.sub);
        return Number.isInteger(id) && id > 0 ? id : null;
      } catch {
        return null;
      }
    },
  };
}
