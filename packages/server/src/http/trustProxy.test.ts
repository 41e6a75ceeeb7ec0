import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createHttpApp } from './app';

describe('client address behind proxies', () => {
  it('believes X-Forwarded-For only from a loopback or private-network peer', async () => {
    const app = await createHttpApp(pino({ level: 'silent' }));
    app.get('/ip', async (req) => ({ ip: req.ip }));
    const ipFrom = async (remoteAddress: string) =>
      (await app.inject({ url: '/ip', remoteAddress, headers: { 'x-forwarded-for': '198.51.100.23' } })).json().ip;
    expect(await ipFrom('127.0.0.1')).toBe('198.51.100.23');
    expect(await ipFrom('10.1.2.3')).toBe('198.51.100.23');
    expect(await ipFrom('192.168.0.10')).toBe('198.51.100.23');
    // A client on the internet cannot choose the address its sign-in failures are counted under.
    expect(await ipFrom('203.0.113.9')).toBe('203.0.113.9');
    await app.close();
  });
});
