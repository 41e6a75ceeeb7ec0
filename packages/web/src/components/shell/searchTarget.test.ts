import { describe, expect, it } from 'vitest';
import { searchTarget } from './searchTarget';

describe('searchTarget', () => {
  it('opens the trace lookup for a 32-hex id, lower-cased', () => {
    expect(searchTarget('  4BF92F3577B34DA6A3CE929D0E0E4736 ', 1)).toBe('/traces/4bf92f3577b34da6a3ce929d0e0e4736');
  });

  it('opens the trace lookup for a dashed UUID, without dashes', () => {
    expect(searchTarget('4bf92f35-77b3-4da6-a3ce-929d0e0e4736', undefined)).toBe('/traces/4bf92f3577b34da6a3ce929d0e0e4736');
  });

  it('searches span groups by name for other text', () => {
    const target = searchTarget('GET /users "x"', 7)!;
    const url = new URL(target, 'http://x');
    expect(url.pathname).toBe('/spans/7');
    expect(url.searchParams.get('system')).toBe('all');
    expect(url.searchParams.get('query')).toBe('group by .group_id | .count_per_min | .error_rate | {p50,p90,p99}(.duration) | where {.name,.event_name} contains "GET /users \\"x\\""');
  });

  it('does nothing for blank text or free text without a project', () => {
    expect(searchTarget('   ', 1)).toBeNull();
    expect(searchTarget('checkout', undefined)).toBeNull();
  });

  it('treats a 16-hex id as text: only full trace ids jump', () => {
    expect(searchTarget('a3ce929d0e0e4736', 1)).toMatch(/^\/spans\/1\?/);
  });
});
