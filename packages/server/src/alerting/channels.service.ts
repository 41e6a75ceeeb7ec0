import { EmailSettings, MAX_CHANNELS, SlackChannelInput, WebhookChannelInput, type ChannelType } from '@lantern/shared';
import { AppError } from '../http/appError';
import { dbId, parseInput } from '../http/parseInput';
import { toChannel, type ChannelParams, type ChannelRow, type ChannelsStore } from './channels.store';
import type { AlertingDb } from './db';
import { RefusedAddressError, type AddressGuard } from './delivery/ssrf';
import type { Mailer } from './delivery/mailer';
import { sendTestEmail, sendTestNotification } from './delivery/testNotification';
import { readEmailSettings, writeEmailSettings } from './emailSettings.store';

/** Notification channels (reference alerting §3.7) and the per-user e-mail settings. */
export interface ChannelsServiceDeps {
  db: AlertingDb;
  channels: ChannelsStore;
  guard: AddressGuard;
  now: () => Date;
  /** Whether notifications.smtp is enabled: the e-mail settings page says so when it is not. */
  smtpEnabled: boolean;
  /** Sends the test e-mail; null (or absent) when SMTP is disabled. */
  mailer?: Mailer | null;
  siteUrl: string;
  projectName(projectId: number): string;
}

export function createChannelsService(deps: ChannelsServiceDeps) {
  const { channels } = deps;

  async function own(projectId: number, rawId: string, types?: ChannelType[]): Promise<ChannelRow> {
    const id = dbId(rawId);
    const row = id === undefined ? undefined : await channels.get(id);
    const notFound = () =>
      new AppError('not_found', 'channel_not_found', `Notification channel ${JSON.stringify(rawId)} not found.`);
    if (!row) throw notFound();
    // Another project's channel is 403 whatever the route (reference §3.7, §5.6); the wrong type path is 404.
    if (row.project_id !== projectId)
      throw new AppError(
        'forbidden',
        'forbidden',
        "you don't have enough permissions to access this notification channel",
      );
    if (types && !types.includes(row.type as ChannelType)) throw notFound();
    return row;
  }

  /** Refuses URLs that point into networks the config does not allow; DNS failures pass (checked again at send time). */
  async function checkUrl(url: string) {
    try {
      await deps.guard.checkHost(new URL(url).hostname);
    } catch (err) {
      if (err instanceof RefusedAddressError) throw new AppError('invalid_input', 'url_refused', err.message);
    }
  }

  async function parsed(
    body: unknown,
    kind: 'slack' | 'webhook',
  ): Promise<{ name: string; type: ChannelType; params: ChannelParams }> {
    if (kind === 'slack') {
      const v = parseInput(SlackChannelInput, body);
      await checkUrl(v.params.webhookUrl);
      return { name: v.name, type: 'slack', params: { webhookUrl: v.params.webhookUrl } };
    }
    const v = parseInput(WebhookChannelInput, body);
    await checkUrl(v.params.url);
    return { name: v.name, type: v.type, params: { url: v.params.url, payload: v.params.payload } };
  }

  const show = async (row: ChannelRow) => ({
    channel: toChannel(row, (await channels.outboxStats([row.id])).get(row.id)),
  });
  const kindTypes = (kind: 'slack' | 'webhook'): ChannelType[] =>
    kind === 'slack' ? ['slack'] : ['webhook', 'alertmanager'];

  return {
    async list(projectId: number) {
      const rows = await channels.list(projectId);
      const outbox = await channels.outboxStats(rows.map((r) => r.id));
      return { channels: rows.map((r) => toChannel(r, outbox.get(r.id))) };
    },
    async create(projectId: number, kind: 'slack' | 'webhook', body: unknown) {
      const id = await channels.create(projectId, await parsed(body, kind), deps.now());
      if (id === 'full')
        throw new AppError(
          'invalid_input',
          'too_many_channels',
          `a project can't have more than ${MAX_CHANNELS} notification channels`,
        );
      return show((await channels.get(id))!);
    },
    show: async (projectId: number, kind: 'slack' | 'webhook', id: string) =>
      show(await own(projectId, id, kindTypes(kind))),
    async update(projectId: number, kind: 'slack' | 'webhook', id: string, body: unknown) {
      const row = await own(projectId, id, kindTypes(kind));
      await channels.update(row.id, await parsed(body, kind));
      return show((await channels.get(row.id))!);
    },
    async setState(projectId: number, id: string, state: 'paused' | 'delivering') {
      const row = await own(projectId, id);
      await channels.setState(row.id, state);
      return show((await channels.get(row.id))!);
    },
    async remove(projectId: number, id: string) {
      const row = await own(projectId, id);
      await channels.delete(row.id);
      return { channel: toChannel(row) };
    },
    /** Sends a sample message now through the real delivery code and reports the receiver's answer. */
    async test(projectId: number, id: string) {
      const row = await own(projectId, id);
      const result = await sendTestNotification(
        row,
        { siteUrl: deps.siteUrl, projectName: deps.projectName(projectId) },
        deps.guard,
        deps.now,
      );
      await channels.recordTest(row.id, result.ok, result.error, new Date(result.sentAt));
      return { result, ...(await show((await channels.get(row.id))!)) };
    },
    /** Sends the sample alert e-mail to the signed-in user now, to check the SMTP settings. */
    async testEmail(projectId: number, user: { email: string }) {
      if (!deps.mailer)
        throw new AppError(
          'invalid_input',
          'smtp_disabled',
          'SMTP is disabled in the config (notifications.smtp.enabled): no e-mail can be sent',
        );
      return {
        result: await sendTestEmail(
          deps.mailer,
          user.email,
          projectId,
          { siteUrl: deps.siteUrl, projectName: deps.projectName(projectId) },
          deps.now,
        ),
      };
    },
    async emailSettings(projectId: number, user: { id: number; email: string }) {
      return {
        channel: { ...(await readEmailSettings(deps.db, user.id, projectId)), email: user.email },
        smtpEnabled: deps.smtpEnabled,
      };
    },
    async saveEmailSettings(projectId: number, user: { id: number; email: string }, body: unknown) {
      const s = parseInput(EmailSettings, body);
      await writeEmailSettings(deps.db, user.id, projectId, s);
      return { channel: { ...s, email: user.email }, smtpEnabled: deps.smtpEnabled };
    },
  };
}

export type ChannelsService = ReturnType<typeof createChannelsService>;
