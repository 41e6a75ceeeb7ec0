/**
 * TEST STAND-IN FOR A CLICKHOUSE SERVER. Not a product part and not a ClickHouse: no modern
 * ClickHouse server can be installed on the test machines, so the tests put this in front of a chDB
 * session (the real ClickHouse engine, embedded) to exercise Lantern's remote store
 * (`storage.ch.url`, `@clickhouse/client`) end to end. It serves the part of the ClickHouse HTTP
 * interface that the client uses:
 *
 * - `GET /ping`, `GET /?query=…`, `POST /` with the query in the body, or in `?query=` with the
 *   data to insert as the body (`INSERT INTO t [(cols)] FORMAT <fmt>`);
 * - `param_<name>` query parameters (values in ClickHouse's escaped text form), settings as
 *   parameters (applied with SET; HTTP-only ones ignored), a trailing `FORMAT <name>`;
 * - answers with `X-ClickHouse-Query-Id`, `-Format`, `-Timezone`, `-Summary` headers, and errors
 *   in ClickHouse's form: the engine's `Code: N. DB::Exception: … (NAME)` text,
 *   `X-ClickHouse-Exception-Code`, and the server's HTTP statuses (400 for bad queries, 404 for
 *   unknown tables, 500 otherwise).
 *
 * One query at a time (chDB runs one per session; a server would run them in parallel).
 * Run: `node --import tsx packages/testkit/src/clickhouse/server.ts <dataDir>`; prints `listening on <port>`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { Session } from 'chdb';

type RawFormat =
  | 'JSONEachRow'
  | 'JSONCompactEachRow'
  | 'CSV'
  | 'CSVWithNames'
  | 'TSV'
  | 'TabSeparated'
  | 'TSVWithNames'
  | 'TabSeparatedWithNames';
const INSERT_FORMATS = new Set<string>([
  'JSONEachRow',
  'JSONCompactEachRow',
  'CSV',
  'CSVWithNames',
  'TSV',
  'TabSeparated',
  'TSVWithNames',
  'TabSeparatedWithNames',
]);
/** URL parameters that are not settings. */
const NOT_SETTINGS = new Set([
  'query',
  'query_id',
  'database',
  'session_id',
  'session_timeout',
  'session_check',
  'default_format',
  'user',
  'password',
  'quota_key',
  'role',
  'compress',
  'decompress',
]);
/** Settings that only shape the HTTP exchange. */
const HTTP_ONLY =
  /^(wait_end_of_query|enable_http_compression|http_\w+|send_progress_in_http_headers|buffer_size|add_http_cors_header)$/;
const STATUS_BY_CODE: Record<number, number> = {
  60: 404,
  81: 404,
  62: 400,
  6: 400,
  26: 400,
  27: 400,
  36: 400,
  47: 400,
  53: 400,
  117: 400,
  456: 400,
  457: 400,
};

const IDENT = /^[A-Za-z_][A-Za-z0-9_.]*$/;
const INSERT_RE = /^\s*INSERT\s+INTO\s+(\S+)\s*(?:\(([^)]*)\))?\s*FORMAT\s+(\w+)\s*$/i;
const FORMAT_RE = /\s+FORMAT\s+(\w+)\s*;?\s*$/i;
const PARAM_TYPE_RE = /\{\s*(\w+)\s*:\s*([^}]+)\}/g;

class HttpError extends Error {
  constructor(
    readonly code: number,
    readonly type: string,
    message: string,
    readonly status = STATUS_BY_CODE[code] ?? 500,
  ) {
    super(`Code: ${code}. DB::Exception: ${message}. (${type})`);
  }
}

/** ClickHouse's escaped text form (`\t`, `\n`, `\\`, `\'`, …) back to the string. */
function unescapeParam(value: string): string {
  const map: Record<string, string> = { t: '\t', n: '\n', r: '\r', b: '\b', f: '\f', '0': '\0', a: '\x07', v: '\v' };
  return value.replace(/\\(.)/gs, (_, c: string) => map[c] ?? c);
}

/**
 * A flat array literal as the client writes it (`['a\\'b',1,NULL]`) to the JS array chDB's binding
 * takes (it formats arrays itself, and escapes text given for an array once more).
 */
function parseArrayLiteral(text: string): unknown[] {
  const out: unknown[] = [];
  let i = 1;
  if (text[0] !== '[' || text[text.length - 1] !== ']')
    throw new HttpError(130, 'CANNOT_READ_ARRAY_FROM_TEXT', `Cannot read array from ${text.slice(0, 50)}`);
  while (i < text.length - 1) {
    if (text[i] === "'") {
      let v = '';
      for (i++; text[i] !== "'"; i++) {
        if (i >= text.length) throw new HttpError(130, 'CANNOT_READ_ARRAY_FROM_TEXT', 'unterminated string in array');
        v += text[i] === '\\' ? unescapeParam(text.slice(i, ++i + 1)) : text[i];
      }
      out.push(v);
      i++;
    } else {
      const end = text.indexOf(',', i) === -1 ? text.length - 1 : text.indexOf(',', i);
      const raw = text.slice(i, end).trim();
      if (raw.startsWith('['))
        throw new HttpError(48, 'NOT_IMPLEMENTED', 'nested arrays are not served by this test stand-in');
      out.push(raw === 'NULL' ? null : Number(raw));
      i = end;
    }
    if (text[i] === ',') i++;
  }
  return out;
}

/** Query parameters for chDB's binding: text unescaped, arrays parsed, the rest as sent (text the engine parses). */
function bindParams(query: string, search: URLSearchParams): Record<string, unknown> {
  const types = new Map<string, string>();
  for (const m of query.matchAll(PARAM_TYPE_RE)) types.set(m[1], m[2].trim());
  const out: Record<string, unknown> = {};
  for (const [k, v] of search) {
    if (!k.startsWith('param_')) continue;
    const name = k.slice('param_'.length);
    const type = types.get(name) ?? '';
    if (type.startsWith('Array(')) out[name] = parseArrayLiteral(v);
    else out[name] = /^(Nullable\(|LowCardinality\()*(String|FixedString\(\d+\))\)*$/.test(type) ? unescapeParam(v) : v;
  }
  return out;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = Buffer.concat(chunks);
  return req.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body;
}

function main(): void {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: server.ts <dataDir>');
  const session = new Session(dir, { connectionArgs: ['--output_format_json_quote_64bit_integers=1'] });
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(f: () => Promise<T>): Promise<T> => {
    const p = queue.then(f, f);
    queue = p.catch(() => undefined);
    return p;
  };
  const applied = new Map<string, string>();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/ping') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=UTF-8' }).end('Ok.\n');
      return;
    }
    if (url.pathname !== '/') throw new HttpError(1000, 'UNKNOWN_HANDLER', `There is no handle ${url.pathname}`, 404);
    if (String(req.headers['content-type'] ?? '').startsWith('multipart/'))
      throw new HttpError(48, 'NOT_IMPLEMENTED', 'multipart parameters are not served by this test stand-in');
    const body = req.method === 'POST' ? await readBody(req) : Buffer.alloc(0);
    const inUrl = url.searchParams.get('query');
    let query = inUrl ?? body.toString('utf8');
    const data = inUrl !== null && body.length > 0 ? body : undefined;
    if (!query.trim()) throw new HttpError(62, 'SYNTAX_ERROR', 'Empty query');
    const queryId = url.searchParams.get('query_id') || crypto.randomUUID();
    const settings = [...url.searchParams].filter(
      ([k]) => !NOT_SETTINGS.has(k) && !k.startsWith('param_') && !HTTP_ONLY.test(k),
    );
    for (const [k] of settings)
      if (!/^\w+$/.test(k)) throw new HttpError(115, 'UNKNOWN_SETTING', `Unknown setting ${k}`);

    const summary = await serial(async () => {
      for (const [k, v] of settings) {
        if (applied.get(k) === v) continue;
        await session.queryAsync(`SET ${k} = '${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`);
        applied.set(k, v);
      }
      if (data) {
        const m = INSERT_RE.exec(query);
        if (!m || !INSERT_FORMATS.has(m[3]) || !IDENT.test(m[1]))
          throw new HttpError(
            62,
            'SYNTAX_ERROR',
            'this test stand-in takes data only for INSERT INTO <table> [(<columns>)] FORMAT <text format>',
          );
        const columns = m[2]?.split(',').map((c) => c.trim().replace(/^`|`$/g, ''));
        if (columns?.some((c) => !IDENT.test(c))) throw new HttpError(62, 'SYNTAX_ERROR', 'bad column list');
        const r = await session.insert({
          table: m[1],
          values: data,
          format: m[3] as RawFormat,
          ...(columns ? { columns } : {}),
        });
        res.setHeader('X-ClickHouse-Format', m[3]);
        return {
          out: '',
          read_rows: 0,
          read_bytes: 0,
          written_rows: r.rowsWritten,
          written_bytes: r.bytesWritten,
          elapsed: r.elapsed,
        };
      }
      const f = FORMAT_RE.exec(query);
      const format = f?.[1] ?? url.searchParams.get('default_format') ?? 'TabSeparated';
      if (f) query = query.slice(0, f.index);
      const params = bindParams(query, url.searchParams);
      const r = Object.keys(params).length
        ? await session.queryBindAsync(query, params, { format })
        : await session.queryAsync(query, { format });
      res.setHeader('X-ClickHouse-Format', format);
      return {
        out: r.text(),
        read_rows: r.rowsRead,
        read_bytes: r.bytesRead,
        written_rows: 0,
        written_bytes: 0,
        elapsed: r.elapsed,
      };
    });
    res.writeHead(200, {
      'content-type': 'text/plain; charset=UTF-8',
      'X-ClickHouse-Query-Id': queryId,
      'X-ClickHouse-Timezone': 'UTC',
      'X-ClickHouse-Server-Display-Name': 'lantern-test-clickhouse',
      'X-ClickHouse-Summary': JSON.stringify({
        read_rows: String(summary.read_rows),
        read_bytes: String(summary.read_bytes),
        written_rows: String(summary.written_rows),
        written_bytes: String(summary.written_bytes),
        total_rows_to_read: '0',
        result_rows: '0',
        result_bytes: '0',
        elapsed_ns: String(Math.round(summary.elapsed * 1e9)),
      }),
    });
    res.end(summary.out);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const e = err as Error & { clickhouseCode?: number };
      const code =
        err instanceof HttpError ? err.code : (e.clickhouseCode ?? Number(/^Code: (\d+)/.exec(e.message)?.[1] ?? 1001));
      const text = /^Code: \d+\. DB::Exception: /.test(e.message)
        ? e.message
        : `Code: ${code}. DB::Exception: ${e.message}. (STD_EXCEPTION)`;
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(err instanceof HttpError ? err.status : (STATUS_BY_CODE[code] ?? 500), {
        'content-type': 'text/plain; charset=UTF-8',
        'X-ClickHouse-Exception-Code': String(code),
      });
      res.end(`${text} (version lantern-test-stand-in)\n`);
    });
  });
  server.listen(Number(process.argv[3] ?? 0), '127.0.0.1', () => {
    const addr = server.address();
    console.log(`listening on ${typeof addr === 'object' && addr ? addr.port : 0}`);
  });
  const stop = () => {
    server.close();
    session.close();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main();
