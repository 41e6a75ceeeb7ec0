import { describe, expect, it } from 'vitest';
import { compile } from '../../storage/sql';
import {
  attrValuesSql,
  groupsSql,
  groupStatsSql,
  groupsStatsSql,
  percentilesSql,
  spansSql,
  systemsSql,
  timeseriesSql,
} from './builders';
import { MAX_FILTER_TERMS, MAX_GROUP_BY_ATTRS } from '@lantern/shared';
import type { RangeScope } from './scope';
import { GROUP_QUERIES } from './goldenQueries';

/**
 * Golden tests: query text -> the exact SQL and bound params each endpoint runs. The golden file
 * (`__golden__/compile.golden.txt`) is reviewed by hand; a change to the compiler shows up as a
 * diff there. Injection attempts must stay bound parameters: the SQL text never contains them.
 */
const scope: RangeScope = {
  projectId: 7,
  gte: new Date('2026-01-01T10:00:00Z'),
  lt: new Date('2026-01-01T11:00:00Z'),
  systems: [],
};

const render = (label: string, f: Parameters<typeof compile>[0]) => {
  const { text, params } = compile(f);
  return `${label}\n  SQL: ${text}\n  params: ${JSON.stringify(params)}`;
};

describe('query compiler golden output', () => {
  it(`has at least 60 group cases`, () => expect(GROUP_QUERIES.length).toBeGreaterThanOrEqual(60));

  it('matches the reviewed golden file', async () => {
    const out: string[] = [];
    for (const q of GROUP_QUERIES) {
      const built = groupsSql(scope, q, { limit: 100 });
      const errors = built.q.parts
        .filter((p) => p.error || p.disabled)
        .map((p) => `  part ${JSON.stringify(p.query)}: ${p.disabled ? 'disabled' : ''}${p.error}`);
      out.push(
        `# ${q}\n` +
          (built.sql ? render('groups', built.sql) : 'groups: no SQL') +
          (errors.length ? '\n' + errors.join('\n') : ''),
      );
    }
    const q =
      'where .status_code = "error" | where http.status_code >= 500 | group by .group_id | .count | where .count > 2';
    out.push(
      `# spans: ${q}\n` +
        render(
          'page',
          spansSql({ ...scope, systems: ['db:all'] }, q, {
            sortBy: '.duration',
            sortDesc: true,
            page: 2,
            limit: 10,
            eventsOnly: false,
          }).page,
        ),
    );
    out.push(
      `# spans sorted by an attribute\n` +
        render(
          'page',
          spansSql(scope, '', { sortBy: 'http.status_code', sortDesc: false, page: 1, limit: 10, eventsOnly: false })
            .page,
        ),
    );
    out.push(
      `# spans sorted by an aggregate falls back\n` +
        render(
          'page',
          spansSql({ ...scope, systems: ['log:all'] }, '', { sortBy: '.count', page: 1, limit: 10, eventsOnly: true })
            .page,
        ),
    );
    out.push(
      `# systems\n` +
        render(
          'systems',
          systemsSql(
            { ...scope, systems: ['http:all', 'db:postgresql', 'spans:all', 'events:all', 'funcs'] },
            'where .duration > 1ms | where .count > 5',
          ).sql,
        ),
    );
    out.push(`# systems all\n` + render('systems', systemsSql({ ...scope, systems: ['all', 'http:all'] }, '').sql));
    out.push(
      `# timeseries\n` +
        render(
          'ts',
          timeseriesSql(
            { ...scope, lt: new Date('2026-01-01T13:00:00Z') },
            'group by service.name | .count_per_min | p50(.duration) | top3(.name)',
          ).sql!,
        ),
    );
    out.push(
      `# groups over 24h from the hour and minute rollups\n` +
        render(
          'groups',
          groupsSql(
            {
              ...scope,
              gte: new Date('2026-01-01T09:30:00Z'),
              lt: new Date('2026-01-02T09:30:00Z'),
              systems: ['http:all'],
            },
            'group by .group_id | .count | p99(.duration)',
            { limit: 100 },
          ).sql!,
        ),
    );
    out.push(
      `# timeseries with 15-minute buckets from the quarter-hour rows (the attribute rollup's environment rows)\n` +
        render(
          'ts',
          timeseriesSql(
            { ...scope, lt: new Date('2026-01-02T10:00:00Z') },
            'group by .group_id | .count_per_min | p99(.duration)',
          ).sql!,
        ),
    );
    out.push(
      `# timeseries from the hour rollup (2-hour buckets)\n` +
        render(
          'ts',
          timeseriesSql(
            { ...scope, lt: new Date('2026-01-08T10:00:00Z') },
            'group by .group_id | .count_per_min | p99(.duration)',
          ).sql!,
        ),
    );
    out.push(
      `# groups over 24h filtered on one rollup attribute: its quarter-hour rows and the edge spans\n` +
        render(
          'groups',
          groupsSql(
            { ...scope, gte: new Date('2026-01-01T09:37:00Z'), lt: new Date('2026-01-02T09:37:00Z') },
            'group by .group_id | .count | {p50,p99}(.duration) | where host.name = "h1" or host.name not exists',
            { limit: 100 },
          ).sql!,
        ),
    );
    out.push(
      `# timeseries with 15-minute buckets filtered on one rollup attribute (no edges: buckets are aligned)\n` +
        render(
          'ts',
          timeseriesSql(
            { ...scope, lt: new Date('2026-01-02T10:00:00Z'), systems: ['spans:all'] },
            'group by .group_id | .count_per_min | p99(.duration) | where service.name in ("a", "b")',
          ).sql!,
        ),
    );
    {
      // Only the groups that can rank among the 100 kept series, by a rollup's counts (builders.ts topGroups).
      const ranked = (sc: RangeScope, q: string) => timeseriesSql(sc, q).ranked;
      const day = { ...scope, lt: new Date('2026-01-02T10:00:00Z') };
      const filtered = 'group by .group_id | .count_per_min | p99(.duration) | where deployment.environment = "prod"';
      out.push(
        `# timeseries of the groups that can be kept, over the attribute rollup\n` +
          render('ts', ranked(day, filtered)!),
        `# the same with a system: the groups from the attribute rollup, the series from the spans\n` +
          render('ts', ranked({ ...day, systems: ['http:all'] }, filtered)!),
        `# without a filter (1 h, minute buckets): the groups and their series from the minute rollup\n` +
          render(
            'ts',
            ranked(
              { ...scope, systems: ['http:all'] },
              'group by .group_id | count() | .error_rate | {p50,p90}(.duration)',
            )!,
          ),
      );
      const none = (q: string) => ranked(day, q) === null;
      out.push(
        `# every group read: ${JSON.stringify({
          percentileFirst: none('group by .group_id | p99(.duration) | .count'),
          errorRateFirst: none('group by .group_id | .error_rate | p99(.duration)'),
          noPercentile: none('group by .group_id | .count | .error_rate'),
          otherGroup: none('group by service.name | .count | p99(.duration)'),
          having: none('group by .group_id | .count | p99(.duration) | where .count > 5'),
          arrayFilter: none('group by .group_id | .count | p99(.duration) | where http.route = "/a"'),
        })}`,
      );
    }
    out.push(
      `# a system narrows the spans read: no attribute rollup\n` +
        render(
          'groups',
          groupsSql(
            { ...scope, lt: new Date('2026-01-02T10:00:00Z'), systems: ['http:all'] },
            'group by .group_id | .count | where service.name = "a"',
            { limit: 100 },
          ).sql!,
        ),
    );
    {
      const spans = spansSql(
        { ...scope, gte: new Date('2026-01-01T09:37:00Z'), lt: new Date('2026-01-02T09:37:00Z') },
        'where deployment.environment = "prod"',
        { page: 3, limit: 10, eventsOnly: false },
      );
      out.push(
        `# spans filtered on one rollup attribute: the total and the duration floor from the rollup\n` +
          [
            render('count', spans.count),
            render('floor', spans.durationFloor!),
            render('page', spans.pageFrom(1234567n)),
          ].join('\n'),
      );
    }
    out.push(
      `# two rollup attributes in one query read the spans\n` +
        render(
          'groups',
          groupsSql(
            { ...scope, lt: new Date('2026-01-02T10:00:00Z') },
            'group by .group_id | .count | where service.name = "a" | where deployment.environment = "prod"',
            { limit: 100 },
          ).sql!,
        ),
    );
    out.push(
      `# percentiles\n` +
        render(
          'pct',
          percentilesSql({ ...scope, groupId: 42n }, 'where service.name = "api" | group by host.name', true).sql,
        ),
    );
    out.push(
      `# percentiles over 7 days (hour buckets) from the group rollups, the edge minutes from the minute rows\n` +
        render(
          'pct',
          percentilesSql(
            { ...scope, gte: new Date('2026-01-01T09:37:00Z'), lt: new Date('2026-01-08T09:37:00Z') },
            '',
            true,
          ).sql,
        ),
    );
    out.push(
      `# spans without filters by duration: the duration floor from the group rollups\n` +
        render(
          'floor',
          spansSql({ ...scope, lt: new Date('2026-01-02T10:00:00Z') }, '', { page: 2, limit: 10, eventsOnly: false })
            .durationFloor!,
        ),
    );
    out.push(
      `# percentiles events\n` + render('pct', percentilesSql({ ...scope, systems: ['log:all'] }, '', false).sql),
    );
    out.push(
      `# group-stats\n` +
        render(
          'gs',
          groupStatsSql(scope, 'where .group_id = 5', ['.count_per_min', 'p95(.duration)', '.error_rate']).sql,
        ),
    );
    out.push(
      `# group-stats of a groups answer's first rows, one query (one digest for both percentiles)\n` +
        render(
          'gss',
          groupsStatsSql(
            scope,
            'group by service.name | .count_per_min | where .status_code = "error"',
            ['.count_per_min', 'p50(.duration)', 'p99(.duration)'],
            ['where service.name = "api"', 'where service.name = "db"'],
          ).sql!,
        ),
    );
    out.push(
      `# group-stats of Explore's first rows by group id, no filter: the groups' minute rows, only theirs\n` +
        render(
          'gss',
          groupsStatsSql(
            scope,
            'group by .group_id | .count_per_min | .error_rate | p50(.duration)',
            ['.count_per_min', 'p50(.duration)'],
            ['where .group_id = 5', 'where .group_id = 18446744073709551615'],
          ).sql!,
        ),
    );
    out.push(
      `# attr-values drops its own filter\n` +
        render('vals', attrValuesSql(scope, 'where service.name = "a" and host.name = "h"', 'service.name', "o'k").sql),
    );
    out.push(`# attr-values of a builtin\n` + render('vals', attrValuesSql(scope, '', '.group_id', undefined).sql));
    await expect(out.join('\n\n') + '\n').toMatchFileSnapshot('./__golden__/compile.golden.txt');
  });

  it.each(["x' OR 1=1 --", 'DROP TABLE spans_index', 'DROP TABLE spans_data', 'system.users', "';DROP"])(
    'never puts injected text %j into the SQL text',
    (needle) => {
      for (const q of GROUP_QUERIES) {
        const built = groupsSql(scope, q, { limit: 100 });
        if (built.sql) expect(compile(built.sql).text).not.toContain(needle);
      }
    },
  );

  it('binds every user value as a parameter', () => {
    const { params } = compile(
      groupsSql(scope, `group by .name | .count | where service.name = "x' OR 1=1 --"`, { limit: 100 }).sql!,
    );
    expect(Object.values(params)).toContain("x' OR 1=1 --");
  });

  it(`caps a query at ${MAX_FILTER_TERMS} filter terms and ${MAX_GROUP_BY_ATTRS} group by attributes; the part that goes over gets the error (400 terms ran for seconds)`, () => {
    const terms = (n: number, from = 0, sep = ' and ') =>
      Array.from({ length: n }, (_, i) => `host != h${from + i}`).join(sep);
    const attrs = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `a${from + i}`).join(', ');
    const errors = (q: string) => groupsSql(scope, q, { limit: 100 }).q.parts.map((p) => p.error);
    expect(errors(`group by ${attrs(20)} | .count | where ${terms(100, 0, ' or ')}`)).toEqual(['', '', '']);
    expect(
      errors(`group by ${attrs(10)} | group by ${attrs(10, 10)} | where ${terms(50)} | where ${terms(50, 50)}`),
    ).toEqual(['', '', '', '']);
    expect(errors(`.count | where ${terms(400)}`)).toEqual(['', 'too many filters: 400 (at most 100)']);
    expect(errors(`.count | where ${terms(60)} | where ${terms(60, 60)}`)).toEqual([
      '',
      '',
      'too many filters: 120 (at most 100)',
    ]);
    expect(errors(`group by ${attrs(300)} | .count`)).toEqual(['too many group by attributes: 300 (at most 20)', '']);
    expect(errors(`group by ${attrs(15)} | group by ${attrs(6, 15)}`)).toEqual([
      '',
      'too many group by attributes: 21 (at most 20)',
    ]);
    // What goes over is not applied.
    const built = groupsSql(scope, `group by .name | .count | where ${terms(MAX_FILTER_TERMS + 1)}`, { limit: 100 });
    expect(compile(built.sql!).text).not.toContain('h0');
    expect(Object.values(compile(built.sql!).params)).not.toContain('h0');
  });
});
