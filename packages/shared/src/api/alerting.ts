import { z } from 'zod';
import { jsonDepthOver, MAX_JSON_DEPTH } from './jsonDepth';
import { MAX_DB_INT, MAX_NAME_LENGTH, MAX_TEXT_LENGTH } from './textLimits';

/**
 * Alerting contracts: monitors, alerts, notification channels, e-mail settings (spec platform §3,
 * §5, §7; reference alerting §2–§3). Request schemas carry the server-side validation messages.
 */

export const MonitorState = z.enum(['active', 'paused', 'firing', 'no-data', 'failed']);
export type MonitorState = z.infer<typeof MonitorState>;
export const MonitorType = z.enum(['metric', 'error']);
export type MonitorType = z.infer<typeof MonitorType>;

/** Monitors a project can have (the monitor list shows them all: MonitorListQuery's largest page). */
export const MAX_MONITORS = 1000;
export const MAX_MONITOR_METRICS = 6;
/** How many matchers an error monitor may have, blank ones included. */
export const MAX_MONITOR_MATCHERS = 20;
/** The duration choices the form offers (spec §9); with forDurationUnit "hours" they are hours. */
export const FOR_DURATION_CHOICES = [1, 3, 5, 10, 15] as const;
export const ForDurationUnit = z.enum(['minutes', 'hours']);
export type ForDurationUnit = z.infer<typeof ForDurationUnit>;

/** `null`, `""` -> null; a number or a numeric string -> the number (reference §2.1). */
const bound = z.preprocess(
  (v) =>
    v === '' || v === undefined
      ? null
      : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))
        ? Number(v)
        : v,
  z.number({ message: 'min and max values must be numbers' }).finite().nullable(),
);

export const MonitorMetric = z.object({
  name: z.string().trim().min(1, 'metric name is required').max(MAX_NAME_LENGTH),
  alias: z
    .string()
    .trim()
    .min(1, 'Alias is required')
    .max(MAX_NAME_LENGTH)
    .regex(/^[A-Za-z0-9_]+$/, 'Only letters and numbers are allowed')
    .transform((a) => a.toLowerCase()),
});
export type MonitorMetric = z.infer<typeof MonitorMetric>;

export const MetricMonitorParams = z
  .object({
    metrics: z
      .array(MonitorMetric)
      .min(1, 'at least one metric is required')
      .max(MAX_MONITOR_METRICS, `at most ${MAX_MONITOR_METRICS} metrics are allowed`),
    query: z.string().trim().min(1, "query can't be empty").max(MAX_TEXT_LENGTH),
    column: z.string().trim().min(1, "column can't be empty").max(MAX_NAME_LENGTH),
    columnUnit: z.string().max(MAX_NAME_LENGTH).default(''),
    forDuration: z
      .number()
      .int()
      .refine((n) => (FOR_DURATION_CHOICES as readonly number[]).includes(n), {
        message: `forDuration must be one of ${FOR_DURATION_CHOICES.join(', ')}`,
      }),
    forDurationUnit: z
      .string()
      .default('minutes')
      .superRefine((u, ctx) => {
        if (!ForDurationUnit.safeParse(u).success)
          ctx.addIssue({ code: 'custom', message: `unsupported duration unit: ${JSON.stringify(u)}` });
      })
      .transform((u) => u as ForDurationUnit),
    minValue: bound.default(null),
    maxValue: bound.default(null),
  })
  .superRefine((p, ctx) => {
    if (p.minValue === null && p.maxValue === null)
      ctx.addIssue({ code: 'custom', message: 'At least min value is required', path: ['minValue'] });
    if (p.minValue !== null && p.maxValue !== null && !(p.maxValue > p.minValue))
      ctx.addIssue({ code: 'custom', message: 'Max value should be greater than min', path: ['maxValue'] });
    const aliases = p.metrics.map((m) => m.alias);
    if (new Set(aliases).size !== aliases.length)
      ctx.addIssue({ code: 'custom', message: 'Alias is duplicated', path: ['metrics'] });
  });
export type MetricMonitorParams = z.infer<typeof MetricMonitorParams>;

export const ErrorMatcher = z.object({
  attr: z.string().trim().max(MAX_NAME_LENGTH),
  op: z.enum(['=', '!='], { message: 'matcher op must be "=" or "!="' }).default('='),
  value: z.string().max(MAX_TEXT_LENGTH),
});
export type ErrorMatcher = z.infer<typeof ErrorMatcher>;

export const ErrorMonitorParams = z.object({
  notifyOnNewErrors: z.boolean().default(true),
  notifyOnRecurringErrors: z.boolean().default(true),
  /** Matchers with an empty attribute or value are dropped (spec §5). */
  matchers: z
    .array(ErrorMatcher)
    .max(MAX_MONITOR_MATCHERS, `at most ${MAX_MONITOR_MATCHERS} matchers are allowed`)
    .default([])
    .transform((ms) => ms.filter((m) => m.attr !== '' && m.value !== '')),
});
export type ErrorMonitorParams = z.infer<typeof ErrorMonitorParams>;

const monitorBase = {
  name: z.string().trim().min(1, "name can't be empty").max(1000),
  notifyEveryoneByEmail: z.boolean().default(false),
  channelIds: z.array(z.number().int().positive().max(MAX_DB_INT)).max(100).default([]),
};
export const MetricMonitorInput = z.object({ ...monitorBase, params: MetricMonitorParams });
export type MetricMonitorInput = z.infer<typeof MetricMonitorInput>;
export const ErrorMonitorInput = z.object({ ...monitorBase, params: ErrorMonitorParams.prefault({}) });
export type ErrorMonitorInput = z.infer<typeof ErrorMonitorInput>;

export const Monitor = z.object({
  id: z.string(),
  projectId: z.number().int(),
  name: z.string(),
  state: MonitorState,
  /** Why the monitor is in its state when that is not obvious (e.g. no metrics query engine). */
  stateReason: z.string(),
  notifyEveryoneByEmail: z.boolean(),
  type: MonitorType,
  params: z.union([MetricMonitorParams, ErrorMonitorParams]),
  createdAt: z.string(),
  updatedAt: z.string().nullable(),
  lastCheckAt: z.string().nullable(),
  channelIds: z.array(z.number().int()).nullable(),
  alertOpenCount: z.number().int(),
  alertClosedCount: z.number().int(),
});
export type Monitor = z.infer<typeof Monitor>;

export const MonitorListQuery = z.object({
  state: MonitorState.optional(),
  /** Only the monitors that notify through this channel (the channel list names them before a delete). */
  channel_id: z.coerce
    .number({ error: 'channel_id must be a channel id' })
    .int('channel_id must be a channel id')
    .min(1, 'channel_id must be a channel id')
    .max(MAX_DB_INT, 'channel_id must be a channel id')
    .optional(),
  page: z.coerce.number().int().min(1).max(1000).default(1),
  limit: z.coerce.number().int().min(1).max(MAX_MONITORS).default(100),
});
export const MonitorListResponse = z.object({
  monitors: z.array(Monitor),
  count: z.number().int(),
  states: z.array(z.object({ state: MonitorState, count: z.number().int() })),
});
export type MonitorListResponse = z.infer<typeof MonitorListResponse>;
export const MonitorResponse = z.object({ monitor: Monitor });
export type MonitorResponse = z.infer<typeof MonitorResponse>;

/** POST .../monitors/metric/preview: a dry run of the evaluator over a range (at most the last 7 days of it). */
export const MetricMonitorPreviewBody = z.object({
  params: MetricMonitorParams,
  time_gte: z.iso.datetime({ offset: true }),
  time_lt: z.iso.datetime({ offset: true }),
});
export const MetricMonitorPreviewResponse = z.object({
  /** Alerts it would have created or reopened, over all series. */
  fired: z.number().int(),
  firstAt: z.string().nullable(),
  series: z.number().int(),
  /** The minutes replayed (the range, cut to its last 7 days). */
  from: z.string(),
  to: z.string(),
});
export type MetricMonitorPreviewResponse = z.infer<typeof MetricMonitorPreviewResponse>;

// --- alerts ---------------------------------------------------------------------------------

export const AlertState = z.enum(['open', 'closed']);
export type AlertState = z.infer<typeof AlertState>;
export const AlertType = z.enum(['error', 'metric']);
export type AlertType = z.infer<typeof AlertType>;
export const AlertEventName = z.enum(['created', 'state-changed', 'recurring']);
export type AlertEventName = z.infer<typeof AlertEventName>;

export const ErrorAlertParams = z.object({
  traceId: z.string(),
  spanId: z.string(),
  spanCount: z.number().int(),
  spanCountTime: z.string(),
});
export type ErrorAlertParams = z.infer<typeof ErrorAlertParams>;

export const MetricAlertParams = z.object({
  /** 1 = above maxValue, -1 = below minValue, 0 = normal. */
  firing: z.union([z.literal(1), z.literal(-1), z.literal(0)]),
  outlier: z.number().nullable(),
  /** The duration the value stayed out of bounds, in minutes. */
  minutes: z.number().int(),
  bounds: z.object({ min: z.number().nullable(), max: z.number().nullable() }),
  monitor: z.object({
    metrics: z.array(z.object({ name: z.string(), alias: z.string() })),
    query: z.string(),
    column: z.string(),
    columnUnit: z.string(),
  }),
});
export type MetricAlertParams = z.infer<typeof MetricAlertParams>;
/**
 * The params of a metric alert's `state-changed` event from the evaluator (reference §2.4, §2.10):
 * the alert params, plus `reopened: true` when the still-firing series reopened an alert a user had
 * closed (absent on the ~3-hourly "still firing" repeat of an open alert).
 */
export const MetricAlertEventParams = MetricAlertParams.extend({ reopened: z.literal(true).optional() });
export type MetricAlertEventParams = z.infer<typeof MetricAlertEventParams>;

export const Alert = z.object({
  id: z.number().int(),
  projectId: z.number().int(),
  name: z.string(),
  state: AlertState,
  type: AlertType,
  /** 0 for error alerts. */
  monitorId: z.number().int(),
  /** "SpanGroup" for error alerts, "" for metric alerts. */
  trackableModel: z.string(),
  /** The span group id (decimal) for error alerts. */
  trackableId: z.string(),
  attrs: z.record(z.string(), z.string()),
  params: z.union([ErrorAlertParams, MetricAlertParams]),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Alert = z.infer<typeof Alert>;

export const ALERT_SORT_COLUMNS = ['updated_at', 'created_at'] as const;

/**
 * The most attributes an alert list may be filtered by. Each facet is counted without its own
 * filter, so each one filtered adds a query holding all the others: 100 took over a second, 700
 * a minute and a half.
 */
export const MAX_ALERT_FILTER_ATTRS = 20;

/**
 * The most different words an alert list search may hold: each is a LIKE pair in every one of
 * the list's queries (the list, its count and each facet's), and 500 took 0.7 s on an empty project.
 */
export const MAX_ALERT_SEARCH_WORDS = 20;

/** The list filter (reference §2.11). `attrs[key]` query params arrive separately as `attrs`. */
export const AlertListQuery = z.object({
  q: z
    .string()
    .max(1000)
    .default('')
    .refine((q) => new Set(q.toLowerCase().split(/\s+/).filter(Boolean)).size <= MAX_ALERT_SEARCH_WORDS, {
      message: `at most ${MAX_ALERT_SEARCH_WORDS} different words are allowed`,
    }),
  attrs: z
    .record(z.string(), z.array(z.string()))
    .default({})
    .refine((a) => Object.keys(a).length <= MAX_ALERT_FILTER_ATTRS, {
      message: `at most ${MAX_ALERT_FILTER_ATTRS} attribute filters are allowed`,
    }),
  sort_by: z.enum(ALERT_SORT_COLUMNS, { message: 'sort_by must be updated_at or created_at' }).default('updated_at'),
  sort_desc: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
  time_gte: z.iso.datetime({ offset: true }).optional(),
  time_lt: z.iso.datetime({ offset: true }).optional(),
  page: z.coerce.number().int().min(1).max(1000).default(1),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export type AlertListQuery = z.infer<typeof AlertListQuery>;

export const FacetItem = z.object({ key: z.string(), value: z.string(), count: z.number().int() });
export const Facet = z.object({ key: z.string(), items: z.array(FacetItem) });
export type Facet = z.infer<typeof Facet>;
/** `count` is the total of alerts matching the filter; `alerts` is the requested page of them. */
export const AlertListResponse = z.object({ alerts: z.array(Alert), count: z.number().int(), facets: z.array(Facet) });
export type AlertListResponse = z.infer<typeof AlertListResponse>;
export const AlertResponse = z.object({ alert: Alert });

/** One notification decided for an alert event: a channel (`channel:<id>`) or the e-mail target. */
export const AlertNotification = z.object({
  target: z.string(),
  channelId: z.number().int().nullable(),
  /** The channel's name and type when it still exists; '' otherwise (and for e-mail). */
  channelName: z.string(),
  channelType: z.string(),
  recipients: z.array(z.string()),
  state: z.string(),
  attempts: z.number().int(),
  lastError: z.string(),
  updatedAt: z.string(),
});
export type AlertNotification = z.infer<typeof AlertNotification>;
/** The alert's history: created, recurring, state changes (by whom), and what was sent where. */
export const AlertEvent = z.object({
  id: z.number().int(),
  name: AlertEventName,
  params: z.unknown(),
  /** The acting user of a manual close / reopen; null for the evaluator's events. */
  user: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  createdAt: z.string(),
  notifications: z.array(AlertNotification),
});
export type AlertEvent = z.infer<typeof AlertEvent>;
export const AlertEventsResponse = z.object({ events: z.array(AlertEvent) });
export type AlertEventsResponse = z.infer<typeof AlertEventsResponse>;

export const AlertIdsInput = z.object({
  alertIds: z.array(z.number().int().positive().max(MAX_DB_INT)).min(1, 'at least one alert is required').max(1000),
});
export type AlertIdsInput = z.infer<typeof AlertIdsInput>;
export const AlertBulkResponse = z.object({ count: z.number().int() });

// --- notification channels ------------------------------------------------------------------

export const ChannelType = z.enum(['slack', 'webhook', 'alertmanager']);
export type ChannelType = z.infer<typeof ChannelType>;
export const ChannelState = z.enum(['delivering', 'paused', 'disabled']);
export type ChannelState = z.infer<typeof ChannelState>;

const httpUrl = (emptyMessage: string) =>
  z
    .string()
    .trim()
    .min(1, emptyMessage)
    .max(MAX_TEXT_LENGTH, `the URL is longer than ${MAX_TEXT_LENGTH} characters`)
    .superRefine((u, ctx) => {
      let parsed: URL;
      try {
        parsed = new URL(u);
      } catch {
        ctx.addIssue({ code: 'custom', message: `invalid URL: ${JSON.stringify(u)}` });
        return;
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
        ctx.addIssue({
          code: 'custom',
          message: `unsupported URL protocol scheme: "${parsed.protocol.replace(':', '')}"`,
        });
    });

/** The custom payload is JSON text in requests; it must parse, and the parse error text is the message (spec §5). */
const payloadText = z
  .string()
  .max(MAX_TEXT_LENGTH, `the payload is longer than ${MAX_TEXT_LENGTH} characters`)
  .default('')
  .transform((text, ctx): unknown => {
    if (text.trim() === '') return null;
    let payload: unknown;
    try {
      payload = JSON.parse(text) as unknown;
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
      return z.NEVER;
    }
    if (jsonDepthOver(payload, MAX_JSON_DEPTH)) {
      ctx.addIssue({ code: 'custom', message: `the payload is nested too deeply (at most ${MAX_JSON_DEPTH} levels)` });
      return z.NEVER;
    }
    return payload;
  });

const channelName = z.string().trim().min(1, "channel name can't be empty").max(500);
/** Notification channels a project can have (the channel list shows them all). */
export const MAX_CHANNELS = 100;

export const SlackChannelInput = z.object({
  name: channelName,
  params: z.object({ webhookUrl: httpUrl("webhook URL can't be empty") }),
});
export type SlackChannelInput = z.infer<typeof SlackChannelInput>;
export const WebhookChannelInput = z.object({
  type: z.enum(['webhook', 'alertmanager'], { message: 'type must be webhook or alertmanager' }).default('webhook'),
  name: channelName,
  params: z.object({ url: httpUrl("url can't be empty"), payload: payloadText }),
});
export type WebhookChannelInput = z.input<typeof WebhookChannelInput>;

export const ChannelDelivery = z.object({
  lastDeliveredAt: z.string().nullable(),
  lastError: z.string(),
  lastErrorAt: z.string().nullable(),
  consecutiveFailures: z.number().int(),
  /** Outbox rows still to send, and when the earliest of them is due (a retry waits its backoff). */
  pending: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  /** Outbox rows given up on (a permanent failure, or every retry used). */
  failed: z.number().int(),
});
export const NotifChannel = z.object({
  id: z.number().int(),
  projectId: z.number().int(),
  name: z.string(),
  type: ChannelType,
  state: ChannelState,
  /** slack: {webhookUrl}; webhook/alertmanager: {url, payload (parsed JSON or null)}. */
  params: z.record(z.string(), z.unknown()),
  delivery: ChannelDelivery,
});
export type NotifChannel = z.infer<typeof NotifChannel>;
export const ChannelListResponse = z.object({ channels: z.array(NotifChannel) });
export const ChannelResponse = z.object({ channel: NotifChannel });

/** What the receiver answered to a test notification (POST .../notification-channels/:id/test). */
export const ChannelTestResult = z.object({
  ok: z.boolean(),
  /** The receiver's HTTP status; null when no answer came (refused address, DNS, timeout). */
  status: z.number().int().nullable(),
  /** The first bytes of the receiver's answer. */
  body: z.string(),
  /** Why the test failed; empty when ok. */
  error: z.string(),
  durationMs: z.number().int(),
  sentAt: z.string(),
});
export type ChannelTestResult = z.infer<typeof ChannelTestResult>;
export const ChannelTestResponse = z.object({ result: ChannelTestResult, channel: NotifChannel });
export type ChannelTestResponse = z.infer<typeof ChannelTestResponse>;
/** The test e-mail (POST .../notification-channels/email/test): `status` is the SMTP reply code. */
export const EmailTestResponse = z.object({ result: ChannelTestResult });
export type EmailTestResponse = z.infer<typeof EmailTestResponse>;

export const EmailSettings = z.object({
  notifyOnMetrics: z.boolean().default(true),
  notifyOnNewErrors: z.boolean().default(true),
  notifyOnRecurringErrors: z.boolean().default(true),
  /** Error e-mails only when every matcher holds for the error's span; empty rows are dropped. */
  errorMatchers: z
    .array(z.object({ attr: z.string().trim().max(MAX_NAME_LENGTH), value: z.string().max(MAX_TEXT_LENGTH) }))
    .max(20)
    .default([])
    .transform((ms) => ms.filter((m) => m.attr !== '' && m.value !== '')),
});
export type EmailSettings = z.infer<typeof EmailSettings>;
export const EmailChannelResponse = z.object({
  channel: EmailSettings.extend({ email: z.string() }),
  /** False when notifications.smtp is disabled in the config: no alert e-mail is sent at all. */
  smtpEnabled: z.boolean(),
});
export type EmailChannelResponse = z.infer<typeof EmailChannelResponse>;

/** The JSON a generic webhook receives (spec §3). */
export const WebhookMessage = z.object({
  id: z.string(),
  eventName: AlertEventName,
  payload: z.unknown(),
  createdAt: z.string(),
  alert: z.object({
    id: z.string(),
    url: z.string(),
    name: z.string(),
    type: AlertType,
    state: AlertState,
    createdAt: z.string(),
  }),
});
export type WebhookMessage = z.infer<typeof WebhookMessage>;
