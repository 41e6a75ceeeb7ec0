import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { listenErrorMessage, startupBanner } from './startupBanner';

const dir = mkdtempSync(join(tmpdir(), 'lantern-banner-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function configFile(name: string, yaml: string): string {
  const file = join(dir, name);
  writeFileSync(file, yaml);
  return file;
}

describe('startupBanner', () => {
  it('tells a newcomer where to sign in, with the default login, and every DSN of the defaults', () => {
    const config = loadConfig({ env: { LANTERN_HTTP_ADDR: '127.0.0.1:15431', LANTERN_GRPC_ADDR: '127.0.0.1:15432' } });
    expect(startupBanner(config, { httpPort: 15431, grpcPort: 15432 }).split('\n')).toEqual([
      'Lantern is serving http://localhost:15431 (HTTP :15431, OTLP/gRPC :15432)',
      'Sign in at http://localhost:15431 as admin@lantern.local with password lantern (the default login: set users in the config to change it)',
      'Project 1 "Lantern": send telemetry with its DSN in the lantern-dsn header',
      '  OTLP/HTTP  http://localhost:15431  lantern-dsn=http://project1_secret_token@localhost:15431/1',
      '  OTLP/gRPC  http://localhost:15432  lantern-dsn=http://project1_secret_token@localhost:15432/1',
      'Project 2 "My project": send telemetry with its DSN in the lantern-dsn header',
      '  OTLP/HTTP  http://localhost:15431  lantern-dsn=http://project2_secret_token@localhost:15431/2',
      '  OTLP/gRPC  http://localhost:15432  lantern-dsn=http://project2_secret_token@localhost:15432/2',
      'Getting started (SDK and Collector settings, demo data): http://localhost:15431/help/1',
    ]);
  });

  it('keeps a changed password to itself and uses the public site address in the DSNs', () => {
    const file = configFile(
      'own.yml',
      [
        'site: { url: "https://lantern.example.com/" }',
        'users: [{ name: Ann, email: admin@lantern.local, password: s3cret-pass }]',
        'projects: [{ id: 7, name: Shop, tokens: [shop_token] }]',
      ].join('\n'),
    );
    const text = startupBanner(loadConfig({ file, env: {} }), { httpPort: 14318, grpcPort: 14317 });
    expect(text).not.toContain('s3cret-pass');
    expect(text).toContain('Sign in at https://lantern.example.com\n');
    expect(text).toContain(
      '  OTLP/HTTP  https://lantern.example.com:443  lantern-dsn=https://shop_token@lantern.example.com:443/7',
    );
    expect(text).toContain(
      '  OTLP/gRPC  https://lantern.example.com:14317  lantern-dsn=https://shop_token@lantern.example.com:14317/7',
    );
    expect(text).toContain(
      'Getting started (SDK and Collector settings, demo data): https://lantern.example.com/help/7',
    );
  });

  it('lists ten projects and counts the rest', () => {
    const projects = Array.from(
      { length: 12 },
      (_, i) => `{ id: ${i + 1}, name: P${i + 1}, tokens: [token_${i + 1}_secret] }`,
    );
    const file = configFile('many.yml', `projects: [${projects.join(', ')}]`);
    const text = startupBanner(loadConfig({ file, env: {} }), { httpPort: 14318, grpcPort: 14317 });
    expect(text.match(/^Project \d+ /gm)).toHaveLength(10);
    expect(text).toContain('(2 more projects: see Project settings in the web app)');
  });
});

describe('listenErrorMessage', () => {
  const config = loadConfig({ env: { LANTERN_HTTP_ADDR: '0.0.0.0:80', LANTERN_GRPC_ADDR: '0.0.0.0:14317' } });

  it('says which listener could not bind and why', () => {
    const http = Object.assign(new Error('listen EACCES: permission denied 0.0.0.0:80'), { code: 'EACCES' });
    expect(listenErrorMessage(http, config)).toMatch(
      /^Lantern failed to start: 0\.0\.0\.0:80 \(listen\.http\.addr\) may not be listened on by this user .* set LANTERN_HTTP_ADDR/,
    );
    const grpc = new Error(
      'No address added out of total 1 resolved errors: [listen EADDRINUSE: address already in use 0.0.0.0:14317]',
    );
    expect(listenErrorMessage(grpc, config)).toMatch(/0\.0\.0\.0:14317 \(listen\.grpc\.addr\) is already in use/);
  });

  it('leaves other errors alone', () => {
    expect(listenErrorMessage(new Error('chDB could not open its data'), config)).toBeUndefined();
    expect(listenErrorMessage('text', config)).toBeUndefined();
  });
});
