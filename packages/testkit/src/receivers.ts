import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * Real local receivers for notification tests: an HTTP server that records every request (for
 * webhook, Slack and Alertmanager channels) and answers with a status the test chooses per path,
 * and an SMTP server that records every message.
 */
export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface HttpReceiver {
  url: string;
  requests: ReceivedRequest[];
  /** Answers for a path, used in order; the last one repeats. Default 200. */
  answer(path: string, ...statuses: number[]): void;
  on(path: string): ReceivedRequest[];
  close(): Promise<void>;
}

export async function startHttpReceiver(): Promise<HttpReceiver> {
  const requests: ReceivedRequest[] = [];
  const answers = new Map<string, number[]>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* keep the text */
      }
      const path = req.url ?? '/';
      const queue = answers.get(path) ?? [200];
      const status = queue.length > 1 ? queue.shift()! : queue[0];
      if (status >= 200 && status < 300) requests.push({ path, headers: req.headers, body });
      res
        .writeHead(status, { 'content-type': 'application/json' })
        .end(JSON.stringify({ message: `answered ${status}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answer: (path, ...statuses) => answers.set(path, statuses),
    on: (path) => requests.filter((r) => r.path === path),
    // Keep-alive connections would hold close() until they time out.
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpReceiver {
  port: number;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (d: Buffer) => (raw += d.toString('utf8')));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, mails, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
