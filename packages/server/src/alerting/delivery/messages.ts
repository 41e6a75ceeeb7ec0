import type { AlertEventName, ErrorAlertParams, MetricAlertParams, WebhookMessage } from '@lantern/shared';
import { formatNumber, hasNumberFormat } from '@lantern/shared';

/**
 * What each channel receives for an alert event (reference alerting §3.3–§3.6, spec §3). Pure:
 * the delivery worker loads the rows and passes them in.
 */
export interface MessageAlert {
  id: number;
  projectId: number;
  name: string;
  type: 'metric' | 'error';
  state: 'open' | 'closed';
  createdAt: string;
  attrs: Record<string, string>;
  params: ErrorAlertParams | MetricAlertParams;
}

export interface MessageEvent {
  id: number;
  name: AlertEventName;
  createdAt: string;
  /** The user who closed / reopened the alert by hand, if any. */
  userName: string | null;
}

export interface MessageContext {
  siteUrl: string;
  projectName: string;
}

export function alertUrl(siteUrl: string, a: Pick<MessageAlert, 'id' | 'projectId'>): string {
  return `${siteUrl.replace(/\/$/, '')}/alerting/${a.projectId}/alerts/${a.id}`;
}

/** RFC3339 with nanoseconds from an ISO time with milliseconds. */
export function rfc3339Nano(iso: string): string {
  return iso.replace(/\.(\d{3})Z$/, '.$1000000Z');
}

/**
 * A value in its column unit, as alert summaries show it (reference alerting §2.8) and as the web
 * app shows it: utilization and percents as %, durations and bytes humanised; a unit without a
 * format of its own follows the number ("12 {requests}").
 */
export function formatValue(x: number, unit: string): string {
  return !unit || unit === 'none' || hasNumberFormat(unit) ? formatNumber(x, unit) : `${formatNumber(x, '')} ${unit}`;
}

/** One line that says what happened (reference alerting §2.8). */
export function alertSummary(a: MessageAlert): string {
  if (a.type === 'error') {
    const p = a.params as ErrorAlertParams;
    return p.spanCount > 1 ? `The error has ${p.spanCount} occurrences` : 'A new error has just occurred';
  }
  const p = a.params as MetricAlertParams;
  if (p.outlier === null || p.firing === 0) return '';
  const unit = p.monitor.columnUnit;
  return p.firing === 1
    ? `${formatValue(p.outlier, unit)} is greater than ${formatValue(p.bounds.max ?? 0, unit)}`
    : `${formatValue(p.outlier, unit)} is less than ${formatValue(p.bounds.min ?? 0, unit)}`;
}

/** The headline shared by Slack and e-mail. */
export function headline(a: MessageAlert, e: MessageEvent): string {
  const what = a.type === 'error' ? 'The error' : 'The metric alert';
  if (e.userName) return `${what} is ${a.state === 'closed' ? 'closed' : 'reopened'} by ${e.userName}`;
  if (a.type === 'error') {
    if (a.state === 'closed') return 'The error is closed';
    // A new alert's first scan may already count several spans: its 'created' event is still a new error.
    return e.name === 'created' ? 'A new error has just occurred' : alertSummary(a);
  }
  if (a.state === 'closed') return 'The metric is back to normal';
  const summary = alertSummary(a);
  return `The metric is ${e.name === 'created' ? 'firing' : 'still firing'}${summary ? `: ${summary}` : ''}`;
}

/**
 * The generic webhook body. A custom payload is a template: every string in it may use
 * {{alert.id}}, {{alert.url}}, {{alert.name}}, {{alert.type}}, {{alert.state}}, {{alert.createdAt}},
 * {{alert.summary}}, {{eventName}}, {{id}} and {{createdAt}}; the result goes in `payload`.
 */
export function webhookMessage(
  a: MessageAlert,
  e: MessageEvent,
  ctx: MessageContext,
  payloadTemplate: unknown,
): WebhookMessage {
  const message: WebhookMessage = {
    id: String(e.id),
    eventName: e.name,
    payload: null,
    createdAt: rfc3339Nano(e.createdAt),
    alert: {
      id: String(a.id),
      url: alertUrl(ctx.siteUrl, a),
      name: a.name,
      type: a.type,
      state: a.state,
      createdAt: rfc3339Nano(a.createdAt),
    },
  };
  const vars: Record<string, string> = {
    id: message.id,
    eventName: e.name,
    createdAt: message.createdAt,
    'alert.id': message.alert.id,
    'alert.url': message.alert.url,
    'alert.name': a.name,
    'alert.type': a.type,
    'alert.state': a.state,
    'alert.createdAt': message.alert.createdAt,
    'alert.summary': alertSummary(a),
  };
  message.payload = renderTemplate(payloadTemplate ?? null, vars);
  return message;
}

export function renderTemplate(t: unknown, vars: Record<string, string>): unknown {
  if (typeof t === 'string') return t.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (m, k: string) => vars[k] ?? m);
  if (Array.isArray(t)) return t.map((x) => renderTemplate(x, vars));
  if (t && typeof t === 'object')
    return Object.fromEntries(Object.entries(t).map(([k, v]) => [k, renderTemplate(v, vars)]));
  return t;
}

export function slackMessage(a: MessageAlert, e: MessageEvent, ctx: MessageContext) {
  // Slack's mrkdwn treats &, < and > as control characters: they must be escaped.
  const slackEscape = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const name = slackEscape(a.name.length > 255 ? `${a.name.slice(0, 252)}...` : a.name);
  const p = `[${ctx.projectName}]`;
  let emoji: string;
  if (a.state === 'closed') emoji = ':white_check_mark:';
  else if (e.userName) emoji = ':red_circle:';
  else if (a.type === 'error') emoji = ':beetle:';
  else
    emoji =
      (a.params as MetricAlertParams).firing === 1
        ? ':arrow_upper_right:'
        : (a.params as MetricAlertParams).firing === -1
          ? ':arrow_lower_right:'
          : '';
  const text = `${emoji ? `${emoji} ` : ''}*${slackEscape(`${p} ${headline(a, e)}`)}*\n${name}`;
  return {
    text: `${p} ${a.name}`,
    blocks: [
      {
        type: 'section',
        text: { type: 'mrkdwn', text },
        accessory: {
          type: 'button',
          text: { type: 'plain_text', text: 'View' },
          action_id: 'button-action',
          value: `view_${a.id}`,
          url: alertUrl(ctx.siteUrl, a),
        },
      },
    ],
  };
}

/** Alertmanager API v2 `POST /api/v2/alerts` body: one alert. */
export function alertmanagerMessage(a: MessageAlert, e: MessageEvent, ctx: MessageContext) {
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(a.attrs)) labels[k.replace(/[^A-Za-z0-9_]/g, '_')] = v;
  labels.alertname = a.name;
  labels.alerturl = alertUrl(ctx.siteUrl, a);
  return [
    {
      labels,
      annotations: { summary: alertSummary(a) || a.name },
      startsAt: a.createdAt,
      ...(a.state === 'closed' ? { endsAt: e.createdAt } : {}),
      generatorURL: alertUrl(ctx.siteUrl, a),
    },
  ];
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function emailMessage(a: MessageAlert, e: MessageEvent, ctx: MessageContext) {
  const url = alertUrl(ctx.siteUrl, a);
  const settings = `${ctx.siteUrl.replace(/\/$/, '')}/alerting/${a.projectId}/email`;
  const head = `[${ctx.projectName}] ${headline(a, e)}`;
  const rows = Object.keys(a.attrs)
    .filter((k) => !k.startsWith('_'))
    .sort()
    .map((k) => `<tr><td>${escapeHtml(k)}</td><td>${escapeHtml(a.attrs[k])}</td></tr>`)
    .join('');
  const html = `<h2>${escapeHtml(head)}</h2><p>${escapeHtml(a.name)}</p><p><a href="${escapeHtml(url)}">${a.type === 'error' ? 'View error' : 'View alert'}</a></p>${rows ? `<table>${rows}</table>` : ''}<p><a href="${escapeHtml(settings)}">Change notification settings.</a></p>`;
  const text = `${head}\n${a.name}\n${url}\n\nChange notification settings: ${settings}\n`;
  return { subject: `[${ctx.projectName}] ${a.name}`, html, text };
}
