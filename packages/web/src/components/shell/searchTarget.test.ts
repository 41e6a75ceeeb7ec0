import { describe, expect, it } from 'vitest';
import { searchAction, searchPath } from './searchTarget';

const landing = (target: string) => {
  const url = new URL(target, 'http://x');
  return { path: url.pathname, system: url.searchParams.get('system'), query: url.searchParams.get('query') };
};

describe('searchAction', () => {
  it('opens the trace lookup for a 32-hex id, lower-cased', () => {
    expect(searchAction('  4BF92F3577B34DA6A3CE929D0E0E4736 ', 1)).toEqual({
      kind: 'go',
      to: '/traces/4bf92f3577b34da6a3ce929d0e0e4736',
    });
  });

  it('opens the trace lookup for a dashed UUID, without dashes', () => {
    expect(searchAction('4bf92f35-77b3-4da6-a3ce-929d0e0e4736', undefined)).toEqual({
      kind: 'go',
      to: '/traces/4bf92f3577b34da6a3ce929d0e0e4736',
    });
  });

  it('searches the project for other text, trimmed', () => {
    expect(searchAction('  GET /users ', 7)).toEqual({ kind: 'search', projectId: 7, text: 'GET /users' });
    // A 16-hex span id is text: only full trace ids jump.
    expect(searchAction('a3ce929d0e0e4736', 1)).toMatchObject({ kind: 'search' });
  });

  it('does nothing for blank text or free text without a project', () => {
    expect(searchAction('   ', 1)).toBeNull();
    expect(searchAction('checkout', undefined)).toBeNull();
  });
});

describe('searchPath', () => {
  it('matches names, display names and log and exception messages, quoting the text', () => {
    const l = landing(searchPath(7, 'GET /users "x"', [{ system: 'http:api', count: 3 }]));
    expect(l.path).toBe('/spans/7');
    expect(l.system).toBe('all');
    expect(l.query).toBe(
      'group by .group_id | .count_per_min | .error_rate | {p50,p90,p99}(.duration) | where {.name,.event_name,.display_name,log.message,exception.message} contains "GET /users \\"x\\""',
    );
  });

  it('lands on the log groups when only logs match', () => {
    const l = landing(
      searchPath(7, 'reconciled', [
        { system: 'log:info', count: 6 },
        { system: 'log:error', count: 1 },
      ]),
    );
    expect(l.system).toBe('log:all');
    expect(l.query).toMatch(/^group by \.group_id \| .* \| where \{.*log\.message.*\} contains "reconciled"$/);
  });

  it('lands on all when spans match too, on events for events alone, and on all when it could not ask', () => {
    expect(
      landing(
        searchPath(7, 'x', [
          { system: 'log:info', count: 2 },
          { system: 'db:postgresql', count: 1 },
        ]),
      ).system,
    ).toBe('all');
    expect(landing(searchPath(7, 'x', [{ system: 'other-events', count: 2 }])).system).toBe('events:all');
    expect(landing(searchPath(7, 'x', [])).system).toBe('all');
    expect(landing(searchPath(7, 'x', null)).system).toBe('all');
  });
});
