import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { normalizeTraces } from '../../packages/server/src/ingest/normalize';
import type { SpanRow } from '../../packages/server/src/ingest';
import { decodeTracesProto } from '../../packages/server/src/ingest/otlp';
import { param, sql, traceIdToUuid, type SqlFragment } from '../../packages/server/src/storage/sql';
import { tsvJson } from '../../packages/server/src/storage/telemetry/tsvText';
import { buildRequestPool } from '../ingest/requestPool';
import { openSpanBytesStore } from './benchStore';

/**
 * Issue 17, item 2: what storing a resource's attributes once would save in spans_data. The
 * realistic spans of `bench/ingest` (as bytesPerSpan.ts `--set ingest` loads them) go into two
 * scratch tables ordered as spans_data: `whole`, the data JSON with every attribute (today), and
 * `split`, the JSON without the row's shared (resource + scope) attributes plus a UInt64 naming
 * them (their JSON would be stored once per resource). Batches of 20,000 rows go into each table
 * in turns; prints bytes per row after `OPTIMIZE ... FINAL` (exact) and the engine's CPU per row
 * for the inserts (noisy; read it as a ratio of the same run).
 *
 *   node --import tsx bench/tracing/resourceOnce.ts [--rows 300000]
 */
const { values: args } = parseArgs({ options: { rows: { type: 'string', default: '300000' } } });
const rows = Number(args.rows);
const dir = `/tmp/b17-resource-once-${process.pid}`;
mkdirSync(dir, { recursive: true });
const store = openSpanBytesStore(join(dir, 'ch'));
const raw = (text: string): SqlFragment => ({ kind: 'fragment', parts: [text], values: [] });

/** The row's own attributes when they begin with its shared ones (as the encoder checks), else null. */
function ownAttrs(r: SpanRow): SpanRow['attrs'] | null {
  if (!r.sharedAttrs) return null;
  const shared = Object.keys(r.sharedAttrs);
  const keys = Object.keys(r.attrs);
  if (!shared.every((k, i) => keys[i] === k && r.attrs[k] === r.sharedAttrs![k])) return null;
  return Object.fromEntries(keys.slice(shared.length).map((k) => [k, r.attrs[k]]));
}

const lines = { whole: [] as string[], split: [] as string[] };
const resources = new Map<string, bigint>();
const project = { projectId: 1, groupByEnv: false, groupFuncsByService: false };
for (let seed = 1, n = 0; n < rows; seed++) {
  for (const body of buildRequestPool({ requests: 50, spansPerRequest: 1000, seed }).bodies) {
    for (const r of normalizeTraces(decodeTracesProto(body), project)) {
      const ids = `1\t${traceIdToUuid(r.traceId)}\t${r.id}`;
      // The data JSON's fields (spanRowEncoding.ts SpanData), with the given attributes.
      const json = (attrs: SpanRow['attrs']) =>
        tsvJson(
          JSON.stringify({
            standalone: r.standalone,
            type: r.type,
            system: r.system,
            groupId: r.groupId.toString(),
            kind: r.kind,
            name: r.name,
            eventName: r.eventName,
            displayName: r.displayName,
            durationNs: r.durationNs,
            statusCode: r.statusCode,
            statusMessage: r.statusMessage,
            attrs,
            links: [],
          }),
        );
      lines.whole.push(`${ids}\t${json(r.attrs)}`);
      const own = ownAttrs(r);
      let resource = 0n;
      if (own) {
        const text = JSON.stringify(r.sharedAttrs);
        resource = resources.get(text) ?? (BigInt(resources.size + 1) * 0x9e3779b97f4a7c15n) % 2n ** 64n;
        resources.set(text, resource);
      }
      lines.split.push(`${ids}\t${resource}\t${json(own ?? r.attrs)}`);
      if (++n >= rows) break;
    }
    if (lines.whole.length >= rows) break;
  }
}

const columns = `project_id UInt32, trace_id UUID CODEC(ZSTD(1)), id UInt64 CODEC(T64, ZSTD(1))`;
await store.query(
  raw(
    `CREATE TABLE whole (${columns}, data String CODEC(ZSTD(1))) ENGINE = MergeTree ORDER BY (project_id, trace_id, id)`,
  ),
);
await store.query(
  raw(
    `CREATE TABLE split (${columns}, resource UInt64 CODEC(ZSTD(1)), data String CODEC(ZSTD(1))) ENGINE = MergeTree ORDER BY (project_id, trace_id, id)`,
  ),
);
const cpu = { whole: 0, split: 0 };
for (let i = 0; i < rows; i += 20_000) {
  for (const table of ['whole', 'split'] as const) {
    const file = join(store.stagingDir ?? dir, `${table}.tsv`);
    writeFileSync(file, lines[table].slice(i, i + 20_000).join('\n') + '\n');
    const before = process.cpuUsage();
    await store.query(
      sql`INSERT INTO ${raw(table)} SELECT * FROM file(${param.string(file)}, 'TSV') SETTINGS use_structure_from_insertion_table_in_table_functions = 1`,
    );
    const used = process.cpuUsage(before);
    cpu[table] += used.user + used.system;
  }
}
for (const table of ['whole', 'split']) await store.query(raw(`OPTIMIZE TABLE ${table} FINAL`));
const bytes = await store.query<{ table: string; name: string; c: string; u: string }>(
  raw(`SELECT table, name, sum(data_compressed_bytes) AS c, sum(data_uncompressed_bytes) AS u
    FROM system.columns WHERE table IN ('whole', 'split') GROUP BY table, name ORDER BY table DESC, name`),
);
const resourceBytes = [...resources.keys()].reduce((n, t) => n + t.length, 0);
console.log(`${rows} rows, ${resources.size} distinct shared attribute sets (${resourceBytes} bytes of JSON in all)`);
console.log('table  column      B/row compressed  B/row uncompressed');
for (const b of bytes)
  console.log(
    `${b.table.padEnd(6)} ${b.name.padEnd(10)} ${(Number(b.c) / rows).toFixed(2).padStart(17)} ${(Number(b.u) / rows).toFixed(1).padStart(19)}`,
  );
console.log(
  `engine CPU per row inserted: whole ${(cpu.whole / rows).toFixed(2)} µs, split ${(cpu.split / rows).toFixed(2)} µs`,
);
await store.close();
rmSync(dir, { recursive: true, force: true });
