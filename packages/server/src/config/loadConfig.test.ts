import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './loadConfig';
import { parseListenAddr } from './schema';

const dir = mkdtempSync(join(tmpdir(), 'lantern-config-'));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe('loadConfig', () => {
  it('has working defaults: two projects with distinct tokens, one user, the standard ports', () => {
    const c = loadConfig({ env: {} });
    expect(c.listen.http.addr).toBe('0.0.0.0:14318');
    expect(c.listen.grpc.addr).toBe('0.0.0.0:14317');
    expect(c.projects.map((p) => p.id)).toEqual([1, 2]);
    expect(c.projects[0].tokens[0]).not.toBe(c.projects[1].tokens[0]);
    expect(c.users).toHaveLength(1);
    expect(c.data_dir).toBe('data');
    expect(c.retention).toEqual({ spans_days: 30, metrics_days: 90 });
  });

  it('reads the YAML file and lets LANTERN_* variables override it', () => {
    const p = file(
      'ok.yml',
      'data_dir: /var/lib/lantern\nlisten:\n  http:\n    addr: ":8080"\nretention:\n  spans_days: 7\n',
    );
    const c = loadConfig({ file: p, env: { LANTERN_HTTP_ADDR: '127.0.0.1:9000', LANTERN_SPANS_TTL_DAYS: '3' } });
    expect(c.data_dir).toBe('/var/lib/lantern');
    expect(c.listen.http.addr).toBe('127.0.0.1:9000');
    expect(c.listen.grpc.addr).toBe('0.0.0.0:14317');
    expect(c.retention.spans_days).toBe(3);
  });

  it('defaults site.url to the port Lantern listens on, unless it is set', () => {
    expect(loadConfig({ env: {} }).site.url).toBe('http://localhost:14318');
    expect(loadConfig({ env: { LANTERN_HTTP_ADDR: '127.0.0.1:9000' } }).site.url).toBe('http://localhost:9000');
    const p = file('site.yml', 'site:\n  url: https://lantern.example.com\nlisten:\n  http:\n    addr: ":8080"\n');
    expect(loadConfig({ file: p, env: {} }).site.url).toBe('https://lantern.example.com');
  });

  it('lists every invalid key at once', () => {
    const p = file(
      'bad.yml',
      [
        'listen:',
        '  http:',
        '    addr: nonsense',
        'retention:',
        '  spans_days: 0',
        'projects:',
        '  - id: 1',
        '    name: A',
        '    tokens: [short]',
        'users:',
        '  - name: X',
        '    email: not-an-email',
        '    password: p',
        'unknown_section: 1',
      ].join('\n'),
    );
    let error: ConfigError | undefined;
    try {
      loadConfig({ file: p, env: { LANTERN_INGEST_BATCH_ROWS: 'many' } });
    } catch (err) {
      error = err as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const text = error!.problems.join('\n');
    expect(text).toMatch(/LANTERN_INGEST_BATCH_ROWS/);
    expect(text).toMatch(/listen\.http\.addr/);
    expect(text).toMatch(/retention\.spans_days/);
    expect(text).toMatch(/projects\.0\.tokens\.0/);
    expect(text).toMatch(/users\.0\.email/);
    expect(text).toMatch(/unknown_section/);
  });

  it('refuses a token shared by two projects, duplicate ids, bad YAML and missing files', () => {
    const dup = file(
      'dup.yml',
      'projects:\n  - {id: 1, name: A, tokens: [same_token_1]}\n  - {id: 1, name: B, tokens: [same_token_1]}\n',
    );
    expect(() => loadConfig({ file: dup, env: {} })).toThrow(
      /unique[\s\S]*one project only|one project only[\s\S]*unique/,
    );
    expect(() => loadConfig({ file: file('yaml.yml', 'a: [1, 2'), env: {} })).toThrow(/not valid YAML/);
    expect(() => loadConfig({ file: join(dir, 'missing.yml'), env: {} })).toThrow(/cannot read/);
  });

  it('splits listen addresses', () => {
    expect(parseListenAddr(':14318')).toEqual({ host: '0.0.0.0', port: 14318 });
    expect(parseListenAddr('127.0.0.1:1')).toEqual({ host: '127.0.0.1', port: 1 });
    expect(parseListenAddr('[::1]:14317')).toEqual({ host: '::1', port: 14317 });
  });
});
