import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChannelListResponse, WebhookMessage } from '@lantern/shared';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import {
  DEFAULT_LOGIN,
  removeDataDir,
  signIn,
  startLantern,
  tempDataDir,
  type RunningLantern,
} from '@lantern/testkit/harness';
import { leaseBrowser, screenshot, signedInContext, type BrowserLease } from '@lantern/testkit/pages/browser';
import { ChannelEmailPage } from '@lantern/testkit/pages/ChannelEmailPage';
import { ChannelForm } from '@lantern/testkit/pages/ChannelForm';
import { ChannelListPage } from '@lantern/testkit/pages/ChannelListPage';
import { ChannelShowPage } from '@lantern/testkit/pages/ChannelShowPage';
import { startHttpReceiver, type HttpReceiver } from '@lantern/testkit/receivers';

/**
 * The notification channel and e-mail settings screens as a person uses them, against the real
 * server (loopback notification URLs allowed in its lantern.yml, SMTP left disabled) and a real
 * local HTTP receiver. Every change is made through the UI; the API is only read to prove that a
 * rejected form saved nothing.
 */
describe('notification channels and e-mail settings', () => {
  let lantern: RunningLantern;
  let configDir: string;
  let receiver: HttpReceiver;
  let browser: BrowserLease;
  let page: Page;
  let cookie: string;
  let list: ChannelListPage;
  let show: ChannelShowPage;
  const browserErrors: string[] = [];

  beforeAll(async () => {
    receiver = await startHttpReceiver();
    configDir = tempDataDir();
    const config = join(configDir, 'lantern.yml');
    writeFileSync(config, 'notifications:\n  allow_networks: [loopback]\n');
    lantern = await startLantern({ env: { LANTERN_CONFIG: config } });
    cookie = await signIn(lantern.baseUrl);
    browser = await leaseBrowser();
    const context = await signedInContext(browser, lantern.baseUrl, { viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    page.on('pageerror', (err) => browserErrors.push(err.message));
    list = new ChannelListPage(page);
    show = new ChannelShowPage(page);
  });

  const explainFailures = () =>
    onTestFailed(() =>
      console.error(
        `--- Lantern output ---\n${lantern.output().slice(-5000)}\n--- browser errors ---\n${browserErrors.join('\n')}`,
      ),
    );

  afterAll(async () => {
    await browser?.close();
    await lantern?.stop();
    await receiver?.close();
    if (lantern) removeDataDir(lantern.dataDir);
    if (configDir) removeDataDir(configDir);
  });

  const savedChannels = async () => {
    const res = await fetch(`${lantern.baseUrl}/api/v1/projects/1/notification-channels`, { headers: { cookie } });
    return ChannelListResponse.parse(await res.json()).channels;
  };
  const dialogForm = () => new ChannelForm(page, list.dialog.getByTestId('channel-form'));

  it('shows the empty state', async () => {
    explainFailures();
    await list.goto(lantern.baseUrl, 1);
    await expect(list.empty.innerText()).resolves.toBe('There are no notification channels');
    await screenshot(page, 'channels-01-empty');
  });

  it('rejects bad input at each field and saves nothing', async () => {
    explainFailures();
    await list.openCreate('webhook');
    await expect(list.dialogTitle.innerText()).resolves.toBe('New WebHook notification channel');
    const box = await list.dialog.locator('.MuiDialog-paper').boundingBox();
    expect(box!.width).toBeLessThanOrEqual(700);
    await expect(list.dialog.getByTestId('webhook-retry-help').innerText()).resolves.toMatch(
      /must answer with a 2xx status, otherwise the request is retried/,
    );
    const form = dialogForm();
    await form.save.click();
    // Empty required fields say what every form says (spec §8).
    await expect(form.helper('name').innerText()).resolves.toBe('Field is required');
    await expect(form.helper('url').innerText()).resolves.toBe('Field is required');
    expect(await form.isInvalid('name')).toBe(true);
    expect(await form.isInvalid('url')).toBe(true);
    await screenshot(page, 'channels-02a-webhook-required');

    await form.fill({ name: 'bad hook', url: 'ftp://example.com/x', payload: '{"team": checkout}' });
    await form.save.click();
    await expect(form.helper('url').innerText()).resolves.toBe('unsupported URL protocol scheme: "ftp"');
    // The message is the browser's own JSON parse error, nothing around it.
    const parseError = await page.evaluate((text) => {
      try {
        JSON.parse(text);
        return 'parsed';
      } catch (err) {
        return (err as Error).message;
      }
    }, '{"team": checkout}');
    expect(parseError).toMatch(/^Unexpected token/);
    await expect(form.helper('payload').innerText()).resolves.toBe(parseError);
    expect(await form.isInvalid('name')).toBe(false);
    await screenshot(page, 'channels-02-webhook-validation');
    // The server's SSRF guard: a private address is not allowed by this server's config (loopback is).
    await form.fill({ url: 'http://10.1.2.3/hook', payload: '' });
    await form.save.click();
    await expect
      .poll(() => form.helper('url').innerText(), { timeout: 10_000 })
      .toMatch(/^10\.1\.2\.3 resolves to 10\.1\.2\.3, a private address; notifications to it are not allowed/);
    await form.cancel.click();
    await list.dialog.waitFor({ state: 'hidden' });

    await list.openCreate('slack');
    await expect(list.dialogTitle.innerText()).resolves.toBe('New Slack notification channel');
    await dialogForm().fill({ name: 'ops' });
    await dialogForm().save.click();
    await expect(dialogForm().helper('webhookUrl').innerText()).resolves.toBe('Field is required');
    await dialogForm().fill({ webhookUrl: 'not a url' });
    await dialogForm().save.click();
    await expect(dialogForm().helper('webhookUrl').innerText()).resolves.toBe('invalid URL: "not a url"');
    await dialogForm().cancel.click();

    await list.openCreate('alertmanager');
    await expect(list.dialogTitle.innerText()).resolves.toBe('New AlertManager notification channel');
    await dialogForm().fill({ url: `${receiver.url}/am` });
    await dialogForm().save.click();
    await expect(dialogForm().helper('name').innerText()).resolves.toBe('Field is required');
    await dialogForm().cancel.click();

    expect(await savedChannels()).toEqual([]);
    expect(receiver.requests).toEqual([]);
    await expect(list.empty.isVisible()).resolves.toBe(true);
  });

  it('creates a webhook channel, sends a test notification and shows the answer', async () => {
    explainFailures();
    await list.openCreate('webhook');
    await dialogForm().fill({
      name: 'checkout hook',
      url: `${receiver.url}/hook`,
      payload: '{"team": "checkout", "what": "{{alert.name}}"}',
    });
    await dialogForm().save.click();
    await page.waitForURL(/\/alerting\/1\/channels\/webhook\/\d+$/);
    await show.form.input('name').waitFor();
    await expect(show.crumbs()).resolves.toBe('Lantern / Channels / WebHook');
    await expect(show.form.input('url').inputValue()).resolves.toBe(`${receiver.url}/hook`);
    await expect(show.deliveryField('last-delivered').innerText()).resolves.toBe('never');
    await expect(show.webhookHelp.isVisible()).resolves.toBe(true);

    await show.sendTestNotification();
    await expect(show.testResult.getAttribute('data-ok')).resolves.toBe('true');
    await expect(show.testTitle.innerText()).resolves.toMatch(/^Delivered: the receiver answered HTTP 200 in \d+ ms$/);
    await expect(show.testBody.innerText()).resolves.toBe('{"message":"answered 200"}');
    const [got] = receiver.on('/hook');
    const message = WebhookMessage.parse(got.body);
    expect(message.alert.name).toBe('Test notification from Lantern');
    expect(message.payload).toEqual({ team: 'checkout', what: 'Test notification from Lantern' });
    await expect(show.deliveryField('last-delivered').innerText()).resolves.toMatch(/seconds? ago/);
    await screenshot(page, 'channels-03-webhook-test-ok');
  });

  it('a failing receiver shows its status and message on the channel', async () => {
    explainFailures();
    receiver.answer('/broken', 500);
    await list.goto(lantern.baseUrl, 1);
    await list.openCreate('webhook');
    await dialogForm().fill({ name: 'broken hook', url: `${receiver.url}/broken` });
    await dialogForm().save.click();
    await page.waitForURL(/\/channels\/webhook\/\d+$/);
    await show.sendTestNotification();
    await expect(show.testResult.getAttribute('data-ok')).resolves.toBe('false');
    await expect(show.testTitle.innerText()).resolves.toBe('Not delivered (HTTP 500)');
    await expect(show.testError.innerText()).resolves.toBe('unexpected response: 500 (answered 500)');
    await expect(show.deliveryField('last-error').innerText()).resolves.toMatch(
      /ago: unexpected response: 500 \(answered 500\)$/,
    );
    // A test never counts towards disabling the channel, and nothing waits in the outbox.
    await expect(show.deliveryField('failures').innerText()).resolves.toBe('0');
    await expect(show.deliveryField('pending').innerText()).resolves.toBe('0');
    await expect(show.deliveryField('failed').innerText()).resolves.toBe('0');
    await screenshot(page, 'channels-04-webhook-test-failed');

    await page.getByTestId('channel-breadcrumb-list').click();
    await list.row('broken hook').waitFor();
    // The list may show its cached answer for a moment while it reloads.
    await expect
      .poll(() => list.row('broken hook').getByTestId('channel-last-error').innerText(), { timeout: 10_000 })
      .toMatch(/^Failed .+ ago: unexpected response: 500 \(answered 500\)$/);
    await expect(list.row('checkout hook').getByTestId('channel-last-error').count()).resolves.toBe(0);
    await expect
      .poll(() => list.row('checkout hook').getByTestId('channel-last-delivered').innerText(), { timeout: 10_000 })
      .toMatch(/^Delivered .+ ago$/);
  });

  it('creates and edits Slack and Alertmanager channels', async () => {
    explainFailures();
    await list.goto(lantern.baseUrl, 1);
    await list.openCreate('slack');
    await dialogForm().fill({ name: 'slack ops', webhookUrl: `${receiver.url}/slack` });
    await dialogForm().save.click();
    await page.waitForURL(/\/channels\/slack\/\d+$/);
    const slackId = show.idFromUrl();
    await expect(show.crumbs()).resolves.toBe('Lantern / Channels / Slack');
    await show.form.fill({ name: 'slack #ops' });
    await show.form.save.click();
    await expect(page.getByTestId('snackbar').innerText()).resolves.toContain(
      'The notification channel has been saved',
    );
    await show.sendTestNotification();
    await expect(show.testResult.getAttribute('data-ok')).resolves.toBe('true');
    expect(JSON.stringify(receiver.on('/slack')[0].body)).toContain('Test notification from Lantern');
    await screenshot(page, 'channels-05-slack-edit');

    await list.goto(lantern.baseUrl, 1);
    await list.openCreate('alertmanager');
    await dialogForm().fill({ name: 'am', url: `${receiver.url}/api/v2/alerts` });
    await dialogForm().save.click();
    await page.waitForURL(/\/channels\/alertmanager\/\d+$/);
    const amId = show.idFromUrl();
    await expect(show.crumbs()).resolves.toBe('Lantern / Channels / AlertManager');
    await expect(show.form.input('payload').count()).resolves.toBe(0);
    await show.form.fill({ name: 'alertmanager prod', url: '' });
    await show.form.save.click();
    await expect(show.form.helper('url').innerText()).resolves.toBe('Field is required');
    await show.form.fill({ url: `${receiver.url}/am/api/v2/alerts` });
    await show.form.save.click();
    await expect(page.getByTestId('snackbar').innerText()).resolves.toContain(
      'The notification channel has been saved',
    );

    // What was saved is what a fresh page shows.
    await show.goto(lantern.baseUrl, 1, 'slack', slackId);
    await expect(show.form.input('name').inputValue()).resolves.toBe('slack #ops');
    await show.goto(lantern.baseUrl, 1, 'alertmanager', amId);
    await expect(show.form.input('name').inputValue()).resolves.toBe('alertmanager prod');
    await expect(show.form.input('url').inputValue()).resolves.toBe(`${receiver.url}/am/api/v2/alerts`);
    const saved = await savedChannels();
    expect(saved.map((c) => [c.name, c.type])).toEqual([
      ['checkout hook', 'webhook'],
      ['broken hook', 'webhook'],
      ['slack #ops', 'slack'],
      ['alertmanager prod', 'alertmanager'],
    ]);
    // A channel under another type's address is not found.
    await show.goto(lantern.baseUrl, 1, 'webhook', slackId);
    await expect(show.notFound.isVisible()).resolves.toBe(true);
    // So is another project's channel (the server answers 403).
    await show.goto(lantern.baseUrl, 2, 'slack', slackId);
    await expect(show.notFound.isVisible()).resolves.toBe(true);
  });

  it('pauses, unpauses and deletes each channel type from the list', async () => {
    explainFailures();
    await list.goto(lantern.baseUrl, 1);
    await expect(list.rows.count()).resolves.toBe(4);
    await expect(page.getByTestId('channel-pager').count()).resolves.toBe(0);
    for (const name of ['checkout hook', 'slack #ops', 'alertmanager prod']) {
      await expect(list.state(name).getAttribute('data-state')).resolves.toBe('delivering');
      await list.pause(name);
      await expect(list.state(name).getAttribute('data-state')).resolves.toBe('paused');
    }
    await screenshot(page, 'channels-06-list-paused');
    await list.reload.click();
    await expect(list.state('slack #ops').getAttribute('data-state')).resolves.toBe('paused');
    for (const name of ['checkout hook', 'slack #ops', 'alertmanager prod']) {
      await list.unpause(name);
      await expect(list.state(name).getAttribute('data-state')).resolves.toBe('delivering');
    }
    expect((await savedChannels()).map((c) => c.state)).toEqual([
      'delivering',
      'delivering',
      'delivering',
      'delivering',
    ]);

    await list.askDelete('slack #ops');
    await expect(list.confirmTitle.innerText()).resolves.toBe('Delete channel');
    await expect(list.confirmMessage.innerText()).resolves.toMatch(
      /^Do you really want to delete "slack #ops" channel\?\s+No monitor notifies through it\.$/,
    );
    await list.answerConfirm(false);
    await expect(list.rows.count()).resolves.toBe(4);
    for (const name of ['slack #ops', 'checkout hook', 'broken hook', 'alertmanager prod']) {
      await list.askDelete(name);
      await list.answerConfirm(true);
      await list.row(name).waitFor({ state: 'detached' });
    }
    await list.empty.waitFor();
    expect(await savedChannels()).toEqual([]);
  });

  it('saves the personal e-mail settings, drops empty matcher rows and says SMTP is off', async () => {
    explainFailures();
    const email = new ChannelEmailPage(page);
    await email.goto(lantern.baseUrl, 1);
    await expect(email.address.inputValue()).resolves.toBe(DEFAULT_LOGIN.email);
    await expect(email.address.isDisabled()).resolves.toBe(true);
    await expect(email.smtpDisabled.innerText()).resolves.toMatch(/E-mail is disabled on this server/);
    await expect(email.sendTest.isDisabled()).resolves.toBe(true);
    for (const flag of ['notifyOnMetrics', 'notifyOnNewErrors', 'notifyOnRecurringErrors'] as const)
      await expect(email.flag(flag).isChecked()).resolves.toBe(true);
    await expect(email.matchers.count()).resolves.toBe(1);

    await email.flag('notifyOnMetrics').uncheck();
    await email.matcherAttr(0).fill('deployment.environment');
    await email.matcherValue(0).fill('production');
    await email.addMatcher.click();
    await email.matcherAttr(1).fill('service.name');
    await email.addMatcher.click();
    await expect(email.matchers.count()).resolves.toBe(3);
    await screenshot(page, 'channels-07-email-settings');
    await email.save.click();
    await expect(page.getByTestId('snackbar').innerText()).resolves.toContain(
      'Email notification settings have been updated successfully',
    );

    await page.reload();
    await email.goto(lantern.baseUrl, 1);
    await expect(email.flag('notifyOnMetrics').isChecked()).resolves.toBe(false);
    await expect(email.flag('notifyOnNewErrors').isChecked()).resolves.toBe(true);
    await expect(email.matchers.count()).resolves.toBe(1);
    await expect(email.matcherAttr(0).inputValue()).resolves.toBe('deployment.environment');
    await expect(email.matcherValue(0).inputValue()).resolves.toBe('production');
    expect(browserErrors).toEqual([]);
  });
});
