import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createAddressGuard } from './ssrf';
import { sendTestEmail, sendTestNotification, TEST_BODY_CHARS } from './testNotification';

const ctx = { siteUrl: 'http://lantern.test', projectName: 'Shop' };
const now = () => new Date('2026-01-02T03:04:05.000Z');

describe('sendTestNotification', () => {
  it('goes through the SSRF guard: a loopback URL is refused unless allowed', async () => {
    const channel = {
      type: 'webhook',
      project_id: 1,
      params: JSON.stringify({ url: 'http://127.0.0.1:9/hook', payload: null }),
    };
    const r = await sendTestNotification(channel, ctx, createAddressGuard([]), now);
    expect(r).toMatchObject({ ok: false, status: null, body: '', sentAt: '2026-01-02T03:04:05.000Z' });
    expect(r.error).toMatch(/loopback address; notifications to it are not allowed/);
  });

  it('reports a transport failure as an outcome, not a throw', async () => {
    const channel = {
      type: 'slack',
      project_id: 1,
      params: JSON.stringify({ webhookUrl: 'http://127.0.0.1:9/closed' }),
    };
    const r = await sendTestNotification(channel, ctx, createAddressGuard(['loopback']), now);
    expect(r.ok).toBe(false);
    expect(r.status).toBeNull();
    expect(r.error).toMatch(/ECONNREFUSED/);
  });

  it('keeps only the first bytes of a long answer', async () => {
    const server = createServer((_req, res) => res.writeHead(202).end('x'.repeat(5000)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const r = await sendTestNotification(
        { type: 'alertmanager', project_id: 1, params: JSON.stringify({ url }) },
        ctx,
        createAddressGuard(['loopback']),
        now,
      );
      expect(r).toMatchObject({ ok: true, status: 202, error: '' });
      expect(r.body).toHaveLength(TEST_BODY_CHARS);
    } finally {
      server.close();
    }
  });
});

describe('sendTestEmail', () => {
  it('reports the SMTP reply code and text, or the failure with its code', async () => {
    const sent: string[][] = [];
    const ok = await sendTestEmail(
      { send: async (m) => (sent.push(m.to), '250 2.0.0 Ok: queued'), close() {} },
      'a@b.c',
      1,
      ctx,
      now,
    );
    expect(ok).toMatchObject({ ok: true, status: 250, body: '250 2.0.0 Ok: queued', error: '' });
    expect(sent).toEqual([['a@b.c']]);
    const refused = Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 });
    const bad = await sendTestEmail({ send: () => Promise.reject(refused), close() {} }, 'a@b.c', 1, ctx, now);
    expect(bad).toMatchObject({ ok: false, status: 550, error: 'smtp: Mailbox unavailable' });
  });
});
