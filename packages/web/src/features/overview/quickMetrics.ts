import type { SystemStats } from '@lantern/shared';
import { isEventSystem } from '../tracing/query/defaultQueries';

/**
 * The Overview's quick metric cards (reference frontend §1.1 SystemQuickMetrics): per-minute rates
 * summed over systems of a kind, and failures as the share of error spans over non-event systems.
 * A card shows only when its value is non-zero.
 */
export interface QuickMetric {
  key: string;
  title: string;
  tooltip: string;
  value: number;
  suffix: string;
  color: string;
  isPercent?: boolean;
}

const isMemDb = (s: string) => s === 'db:redis' || s === 'db:memcache' || s === 'db:memcached';

export function quickMetrics(systems: SystemStats[]): QuickMetric[] {
  const rate = (pred: (s: string) => boolean) => systems.filter((s) => pred(s.system)).reduce((n, s) => n + s.rate, 0);
  const nonEvent = systems.filter((s) => !isEventSystem(s.system) && !s.system.startsWith('log:'));
  const count = nonEvent.reduce((n, s) => n + s.count, 0);
  const errors = nonEvent.reduce((n, s) => n + s.errorCount, 0);
  const cards: QuickMetric[] = [
    {
      key: 'spans',
      title: 'Spans',
      tooltip: 'Spans per minute over every system',
      value: rate((s) => !s.startsWith('log:') && !isEventSystem(s)),
      suffix: 'span/min',
      color: '#009688',
    },
    {
      key: 'http',
      title: 'HTTP',
      tooltip: 'HTTP requests per minute',
      value: rate((s) => s.startsWith('http:')),
      suffix: 'req/min',
      color: '#2196F3',
    },
    {
      key: 'rpc',
      title: 'RPC',
      tooltip: 'RPC requests per minute',
      value: rate((s) => s.startsWith('rpc:')),
      suffix: 'req/min',
      color: '#FF9800',
    },
    {
      key: 'db',
      title: 'Database',
      tooltip: 'Database operations per minute',
      value: rate((s) => s.startsWith('db:') && !isMemDb(s)),
      suffix: 'op/min',
      color: '#9C27B0',
    },
    {
      key: 'memdb',
      title: 'In-memory DB',
      tooltip: 'Redis and Memcached operations per minute',
      value: rate(isMemDb),
      suffix: 'op/min',
      color: '#3F51B5',
    },
    {
      key: 'failures',
      title: 'Failures',
      tooltip: 'Share of spans with an error status',
      value: count ? (errors / count) * 100 : 0,
      suffix: '',
      color: '#F44336',
      isPercent: true,
    },
    {
      key: 'logs',
      title: 'Logs',
      tooltip: 'Log records per minute',
      value: rate((s) => s.startsWith('log:')),
      suffix: 'log/min',
      color: '#607D8B',
    },
  ];
  return cards.filter((c) => c.value > 0);
}
