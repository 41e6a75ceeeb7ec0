import { describe, expect, it } from 'vitest';
import { compile } from '../../storage/sql';
import { attrValuesSql, groupsSql, groupStatsSql, percentilesSql, spansSql, systemsSql, timeseriesSql } from './builders';
import type { RangeScope } from './compile';

/**
 * Golden tests: query text -> the exact SQL and bound params each endpoint runs. The golden file
 * (`__golden__/compile.golden.txt`) is reviewed by hand; a change to the compiler shows up as a
 * diff there. Injection attempts must stay bound parameters: the SQL text never contains them.
 */
const scope: RangeScope = { projectId: 7, gte: new Date('2026-01-01T10:00:00Z'), lt: new Date('2026-01-01T11:00:00Z'), systems: [] };

const GROUP_QUERIES = [
  // columns and aggregations
  'group by .group_id | .count_per_min | .error_rate | {p50,p90,p99}(.duration)',
  'group by service.name | count()',
  'group by span.system | span.count | span.error_count | span.error_pct',
  'group by host.name | p95(.duration)',
  'group by host.name | p75(span.duration) as slow',
  'group by service.name | sum(http.response_size) | avg(http.response_size) | min(.duration) | max(.duration)',
  'group by service.name | uniq(enduser.id) | any(.name) | anyLast(.name) | top3(.name) | top10(http.route)',
  'group by service.name | per_min(count()) | per_min(.error_count) | per_min(http.bytes)',
  'group by service.name, host.name | .count',
  'group by "k8s.pod-name" | .count',
  'group by deployment.environment, db.system, db.operation, db.sql.table | .count',
  'group by log.severity, exception.type | .count',
  'group by .kind, .status_code | .count',
  'group by .name | .count | .count',
  '.count | p99(.duration)',
  'select .count, .error_rate',
  'group by service.name | service.name | .count',
  // where filters
  'group by .name | .count | where .duration > 10ms',
  'group by .name | .count | where .duration >= 1.5s and .duration < 1m',
  'group by .name | .count | where .duration <= 300us',
  'group by .name | .count | where .duration > 1000000',
  'group by .name | .count | where service.name = "api"',
  'group by .name | .count | where service.name != api',
  'group by .name | .count | where http.status_code >= 500',
  'group by .name | .count | where http.status_code = "500"',
  'group by .name | .count | where http.status_code in (500, 502, "503")',
  'group by .name | .count | where http.status_code not in (200)',
  'group by .name | .count | where .status_code = error or .kind = server',
  'group by .name | .count | where .name like "GET %"',
  'group by .name | .count | where .name not like "%health%"',
  'group by .name | .count | where db.statement contains "select|insert"',
  'group by .name | .count | where db.statement not contains "pg_"',
  'group by .name | .count | where .name !~ "x"',
  'group by .name | .count | where enduser.id exists',
  'group by .name | .count | where enduser.id not exists',
  'group by .name | .count | where enduser.id does not exist',
  'group by .name | .count | where .duration exists',
  'group by .name | .count | where .group_id = 18446744073709551615',
  'group by .name | .count | where .group_id in (1, 2)',
  'group by .name | .count | where .group_id = "12"',
  'group by .name | .count | where .trace_id = "0af7651916cd43dd8448eb211c80319c"',
  'group by .name | .count | where .time >= "2026-01-01T10:30:00Z"',
  'group by .name | .count | where .is_event = 1',
  'group by .name | .count | where is_slow',
  'group by .name | .count | where {http.route, url.path} contains "users"',
  'group by .name | .count | where a = 1 | where b = 2',
  'group by .name | .count | where .event_count > 0 and .link_count >= 1',
  // aggregates in HAVING
  'group by .name | .count | where .count > 100',
  'group by .name | .count | where .error_rate > 0.1 and .duration > 10ms',
  'group by .name | p99(.duration) | where p99(.duration) > 1s',
  'group by .name | p99(.duration) as slow | where slow > 1s',
  'group by .name | .count | where .count_per_min >= 2',
  // errors and disabled parts (the other parts still apply)
  'group by .name | .count | where .count > 1 or .duration > 1s',
  'group by .name | host.name',
  'group by .name | .count | where',
  'group by .name | .count | foo(.duration)',
  'group by .name | p50(.count)',
  'group by .count | .count',
  'group by .name | .count | where .nope = 1',
  // injection attempts: all must remain bound values
  `group by .name | .count | where service.name = "x' OR 1=1 --"`,
  `group by .name | .count | where service.name = 'a\\' ; DROP TABLE spans_index; --'`,
  `group by .name | .count | where "a'); DROP TABLE spans_data; --" = 1`,
  `group by "x\\"; DROP TABLE spans_index" | .count`,
  `group by .name | .count | where http.route in ("/*", "*/ DROP", "\\\\")`,
  `group by .name | .count | where service.name like "%'; SELECT * FROM system.users; --"`,
  `group by .name | .count | where db.statement contains "';DROP|--"`,
  `group by .name | uniq("key' , 1) FROM x --")`,
  `group by .name | .count | where service.name = "\\u0000\\n\\t"`,
] as const;

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
      const errors = built.q.parts.filter((p) => p.error || p.disabled).map((p) => `  part ${JSON.stringify(p.query)}: ${p.disabled ? 'disabled' : ''}${p.error}`);
      out.push(`# ${q}\n` + (built.sql ? render('groups', built.sql) : 'groups: no SQL') + (errors.length ? '\n' + errors.join('\n') : ''));
    }
    const q = 'where .status_code = "error" | where http.status_code >= 500 | group by .group_id | .count | where .count > 2';
    out.push(`# spans: ${q}\n` + render('page', spansSql({ ...scope, systems: ['db:all'] }, q, { sortBy: '.duration', sortDesc: true, page: 2, limit: 10, eventsOnly: false }).page));
    out.push(`# spans sorted by an attribute\n` + render('page', spansSql(scope, '', { sortBy: 'http.status_code', sortDesc: false, page: 1, limit: 10, eventsOnly: false }).page));
    out.push(`# spans sorted by an aggregate falls back\n` + render('page', spansSql({ ...scope, systems: ['log:all'] }, '', { sortBy: '.count', page: 1, limit: 10, eventsOnly: true }).page));
    out.push(`# systems\n` + render('systems', systemsSql({ ...scope, systems: ['http:all', 'db:postgresql', 'spans:all', 'events:all', 'funcs'] }, 'where .duration > 1ms | where .count > 5').sql));
    out.push(`# systems all\n` + render('systems', systemsSql({ ...scope, systems: ['all', 'http:all'] }, '').sql));
    out.push(`# timeseries\n` + render('ts', timeseriesSql({ ...scope, lt: new Date('2026-01-01T13:00:00Z') }, 'group by service.name | .count_per_min | p50(.duration) | top3(.name)').sql!));
    out.push(`# percentiles\n` + render('pct', percentilesSql({ ...scope, groupId: 42n }, 'where service.name = "api" | group by host.name', true).sql));
    out.push(`# percentiles events\n` + render('pct', percentilesSql({ ...scope, systems: ['log:all'] }, '', false).sql));
    out.push(`# group-stats\n` + render('gs', groupStatsSql(scope, 'where .group_id = 5', ['.count_per_min', 'p95(.duration)', '.error_rate']).sql));
    out.push(`# attr-values drops its own filter\n` + render('vals', attrValuesSql(scope, 'where service.name = "a" and host.name = "h"', 'service.name', "o'k").sql));
    out.push(`# attr-values of a builtin\n` + render('vals', attrValuesSql(scope, '', '.group_id', undefined).sql));
    await expect(out.join('\n\n') + '\n').toMatchFileSnapshot('./__golden__/compile.golden.txt');
  });

  it.each([
    "x' OR 1=1 --",
    "DROP TABLE spans_index",
    'DROP TABLE spans_data',
    'system.users',
    "';DROP",
  ])('never puts injected text %j into the SQL text', (needle) => {
    for (const q of GROUP_QUERIES) {
      const built = groupsSql(scope, q, { limit: 100 });
      if (built.sql) expect(compile(built.sql).text).not.toContain(needle);
    }
  });

  it('binds every user value as a parameter', () => {
    const { params } = compile(groupsSql(scope, `group by .name | .count | where service.name = "x' OR 1=1 --"`, { limit: 100 }).sql!);
    expect(Object.values(params)).toContain("x' OR 1=1 --");
  });
});
