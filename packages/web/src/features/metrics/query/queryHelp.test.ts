import { parseMetricsQuery } from '@lantern/shared';
import { describe, expect, it } from 'vitest';
import { EXAMPLES } from './queryHelp';

describe('query builder help', () => {
  it.each(EXAMPLES.map(([q]) => q))('its example %s parses', (q) => {
    expect(parseMetricsQuery(q).parts.filter((p) => p.kind === 'error')).toEqual([]);
  });
});
