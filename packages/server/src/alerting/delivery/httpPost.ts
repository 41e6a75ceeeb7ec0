import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { AddressGuard } from './ssrf';

/** POSTs JSON through the address guard; resolves with any HTTP answer, rejects on transport errors. */
export const HTTP_TIMEOUT_MS = 5000;
const MAX_RESPONSE_BYTES = 10 * 1024;

export interface HttpAnswer {
  status: number;
  body: string;
}

export function postJson(
  url: string,
  body: unknown,
  guard: AddressGuard,
  timeoutMs = HTTP_TIMEOUT_MS,
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    let u: URL;
    try {
      u = new URL(url);
      if (u.protocol !== 'http:' && u.protocol !== 'https:')
        throw new Error(`unsupported URL protocol scheme: "${u.protocol.replace(':', '')}"`);
      // A literal address never goes through DNS, so the lookup hook would not see it.
      const host = u.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host)) guard.check(u.hostname, host);
    } catch (err) {
      return reject(err instanceof Error ? err : new Error('invalid URL'));
    }
    const data = Buffer.from(JSON.stringify(body));
    const req = (u.protocol === 'https:' ? https : http).request(
      u,
      {
        method: 'POST',
        lookup: guard.lookup,
        timeout: timeoutMs,
        headers: { 'content-type': 'application/json', 'content-length': data.length, 'user-agent': 'Lantern/1.0' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < MAX_RESPONSE_BYTES) chunks.push(c);
          size += c.length;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8').slice(0, MAX_RESPONSE_BYTES),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(data);
  });
}

/** "unexpected response: 500 (message)" from a non-2xx answer, with the body's JSON message if any. */
export function describeAnswer(a: HttpAnswer): string {
  let detail = a.body.slice(0, 100);
  try {
    const m = (JSON.parse(a.body) as { message?: unknown }).message;
    if (typeof m === 'string') detail = m;
  } catch {
    /* not JSON: keep the first bytes */
  }
  return `unexpected response: ${a.status}${detail ? ` (${detail})` : ''}`;
}
