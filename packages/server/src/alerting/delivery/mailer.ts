import nodemailer from 'nodemailer';
import type { Config } from '../../config';

/** Sends alert e-mails over SMTP with nodemailer; null when `notifications.smtp.enabled` is false. */
export interface Mailer {
  /** Resolves with the SMTP server's final answer, e.g. "250 2.0.0 Ok: queued". */
  send(msg: { to: string[]; subject: string; html: string; text: string }): Promise<string>;
  close(): void;
}

export function createMailer(smtp: Config['notifications']['smtp']): Mailer | null {
  if (!smtp.enabled) return null;
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.tls,
    // STARTTLS when the server offers it; plain servers (e.g. a local relay) still work.
    ignoreTLS: false,
    requireTLS: false,
    ...(smtp.username ? { auth: { user: smtp.username, pass: smtp.password } } : {}),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(msg) {
      const info = await transport.sendMail({
        from: `Lantern <${smtp.from}>`,
        to: msg.to,
        subject: msg.subject,
        html: msg.html,
        text: msg.text,
      });
      return String(info.response ?? '');
    },
    close: () => transport.close(),
  };
}

/** SMTP 5xx answers are permanent; anything else (4xx, network) is worth a retry. */
export function isPermanentMailError(err: unknown): boolean {
  const code = (err as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}
