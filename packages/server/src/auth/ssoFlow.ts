import { authRoutes, routePath } from '@lantern/shared';
/**
 * Drives a single sign-on the way a browser would, over plain HTTP with a cookie jar per host:
 * Lantern's start URL, the provider's login form, its redirects, Lantern's callback. Tests use the
 * steps to tamper with one of them.
 */
export class CookieJar {
  private readonly byHost = new Map<string, Map<string, string>>();

  store(url: string, res: Response): void {
    const host = new URL(url).host;
    const jar = this.byHost.get(host) ?? new Map<string, string>();
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1);
      if (value === '' || /max-age=0|expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    this.byHost.set(host, jar);
  }

  header(url: string): string {
    return [...(this.byHost.get(new URL(url).host) ?? new Map()).entries()].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  get(url: string, name: string): string | undefined {
    return this.byHost.get(new URL(url).host)?.get(name);
  }

  delete(url: string, name: string): void {
    this.byHost.get(new URL(url).host)?.delete(name);
  }
}

export async function request(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, {
    ...init,
    redirect: 'manual',
    headers: { ...(init.headers as Record<string, string>), cookie: jar.header(url) },
  });
  jar.store(url, res);
  return res;
}

export const locationOf = (res: Response, base: string): string =>
  new URL(res.headers.get('location') ?? '', base).href;

/** Lantern's start: the provider's authorization URL (the state cookie goes into the jar). */
export async function ssoStart(
  jar: CookieJar,
  baseUrl: string,
  providerId: string,
  returnTo?: string,
): Promise<Response> {
  const q = returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : '';
  return request(jar, `${baseUrl}${routePath(authRoutes.ssoStart, { id: providerId })}${q}`);
}

/** At the provider: follow the authorization URL, submit the login form, and return the callback URL it redirects to. */
export async function signInAtProvider(jar: CookieJar, authorizationUrl: string, login: string): Promise<string> {
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    const res = await request(jar, url);
    if (res.status === 200 && /\/interaction\//.test(url)) {
      await res.text();
      const posted = await request(jar, url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ login, password: 'any' }).toString(),
      });
      url = locationOf(posted, url);
      continue;
    }
    if (res.status < 300 || res.status >= 400)
      throw new Error(`provider answered ${res.status} at ${url}: ${await res.text()}`);
    const next = locationOf(res, url);
    if (new URL(next).pathname.endsWith('/callback')) return next;
    url = next;
  }
  throw new Error('too many redirects at the provider');
}

/** The whole round trip; the callback's answer (a redirect into the app or to the Login page). */
export async function ssoSignIn(
  jar: CookieJar,
  baseUrl: string,
  providerId: string,
  login: string,
  returnTo?: string,
): Promise<Response> {
  const start = await ssoStart(jar, baseUrl, providerId, returnTo);
  if (start.status !== 302) throw new Error(`start answered ${start.status}`);
  const callback = await signInAtProvider(jar, locationOf(start, baseUrl), login);
  return request(jar, callback);
}
