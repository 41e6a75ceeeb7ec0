import { describe, expect, it } from 'vitest';
import {
  alertmanagerMessage,
  formatValue,
  headline,
  renderTemplate,
  rfc3339Nano,
  slackMessage,
  webhookMessage,
  type MessageAlert,
  type MessageEvent,
} from './messages';

const metric: MessageAlert = {
  id: 7,
  projectId: 1,
  name: 'Latency: p90{service.name=api}',
  type: 'metric',
  state: 'open',
  createdAt: '2026-11-23T10:00:00.000Z',
  attrs: { 'service.name': 'api', 'k8s/pod': 'p-1' },
  params: {
    firing: -1,
    outlier: 0.05,
    minutes: 5,
    bounds: { min: 0.1, max: null },
    monitor: { metrics: [], query: 'p90', column: 'p90', columnUnit: 'seconds' },
  },
};
const created: MessageEvent = { id: 42, name: 'created', createdAt: '2026-11-23T10:05:00.123Z', userName: null };
const ctx = { siteUrl: 'https://lantern.example/', projectName: 'Shop' };

describe('messages', () => {
  it('formats values by unit as the web app shows them (one formatter, packages/shared)', () => {
    expect(formatValue(0.953, 'utilization')).toBe('95%');
    expect(formatValue(42.5, 'percents')).toBe('43%');
    expect(formatValue(0.05, 'seconds')).toBe('50ms');
    expect(formatValue(5, 'seconds')).toBe('5.0s');
    // Durations and bytes are humanised (reference alerting §2.8), not "1500000 microseconds".
    expect(formatValue(1_500_000, 'microseconds')).toBe('1.5s');
    expect(formatValue(1500, 'milliseconds')).toBe('1.5s');
    expect(formatValue(250, 'nanoseconds')).toBe('0.25µs');
    expect(formatValue(999.996, 'milliseconds')).toBe('1.0s');
    expect(formatValue(1_073_741_824, 'bytes')).toBe('1 GB');
    expect(formatValue(512, 'kilobytes')).toBe('512 KB');
    expect(formatValue(0, 'bytes')).toBe('0');
    expect(formatValue(12, '{requests}')).toBe('12 {requests}');
    expect(formatValue(3.14159, '')).toBe('3.1');
    expect(formatValue(1234.5, 'none')).toBe('1.2k');
  });
  it('says what happened for each kind of event', () => {
    expect(headline(metric, created)).toBe('The metric is firing: 50ms is less than 100ms');
    expect(headline(metric, { ...created, name: 'state-changed' })).toBe(
      'The metric is still firing: 50ms is less than 100ms',
    );
    expect(headline({ ...metric, state: 'closed' }, created)).toBe('The metric is back to normal');
    expect(headline({ ...metric, state: 'closed' }, { ...created, userName: 'ann' })).toBe(
      'The metric alert is closed by ann',
    );
    const error: MessageAlert = {
      ...metric,
      type: 'error',
      params: { traceId: '', spanId: '', spanCount: 120, spanCountTime: '' },
    };
    // A new alert whose first scan saw 120 spans is still announced as a new error (audit §12).
    expect(headline(error, created)).toBe('A new error has just occurred');
    expect(headline(error, { ...created, name: 'recurring' })).toBe('The error has 120 occurrences');
    expect(headline(error, { ...created, userName: 'bob' })).toBe('The error is reopened by bob');
  });
  it('builds the webhook message with a rendered payload template and nanosecond times', () => {
    expect(rfc3339Nano('2026-11-23T10:05:00.123Z')).toBe('2026-11-23T10:05:00.123000000Z');
    expect(
      webhookMessage(metric, created, ctx, {
        title: '{{alert.name}} ({{ eventName }})',
        tags: ['{{alert.type}}', 1],
        keep: '{{unknown}}',
      }),
    ).toEqual({
      id: '42',
      eventName: 'created',
      payload: { title: 'Latency: p90{service.name=api} (created)', tags: ['metric', 1], keep: '{{unknown}}' },
      createdAt: '2026-11-23T10:05:00.123000000Z',
      alert: {
        id: '7',
        url: 'https://lantern.example/alerting/1/alerts/7',
        name: metric.name,
        type: 'metric',
        state: 'open',
        createdAt: '2026-11-23T10:00:00.000000000Z',
      },
    });
    expect(renderTemplate(null, {})).toBeNull();
  });
  it('escapes Slack control characters', () => {
    const text = slackMessage({ ...metric, name: 'a < b & c' }, created, ctx).blocks[0].text.text;
    expect(text.endsWith('\na &lt; b &amp; c')).toBe(true);
  });
  it('builds Alertmanager v2 alerts with sanitised labels and endsAt only when closed', () => {
    const [open] = alertmanagerMessage(metric, created, ctx);
    expect(open.labels).toEqual({
      service_name: 'api',
      k8s_pod: 'p-1',
      alertname: metric.name,
      alerturl: 'https://lantern.example/alerting/1/alerts/7',
    });
    expect(open).not.toHaveProperty('endsAt');
    const [closed] = alertmanagerMessage({ ...metric, state: 'closed' }, created, ctx);
    expect(closed.endsAt).toBe(created.createdAt);
  });
});
