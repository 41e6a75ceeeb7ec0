import { describe, it, expect } from 'vitest';
import type { AttrMap } from '../spanRow';
import { copyStableNames, normalizeAliases } from './attrAliases';
import { normalizeSeverity } from './severity';

describe('normalizeAliases (reference ingest §2.5)', () => {
  it.each<[string, AttrMap, AttrMap]>([
    ['service_name → service.name', { service_name: 'api' }, { 'service.name': 'api' }],
    [
      'first alias with a non-empty string wins',
      { service_name: '', service: 'web' },
      { service_name: '', 'service.name': 'web' },
    ],
    [
      'canonical present: aliases untouched',
      { 'service.name': 'a', service: 'b' },
      { 'service.name': 'a', service: 'b' },
    ],
    ['http_route', { http_route: '/x' }, { 'http.route': '/x' }],
    ['db.type → db.system', { 'db.type': 'redis' }, { 'db.system': 'redis' }],
    ['QUIRK fixed: dbname → db.name, not db.system', { dbname: 'app' }, { 'db.name': 'app' }],
    ['statement → db.statement', { statement: 'SELECT 1' }, { 'db.statement': 'SELECT 1' }],
    ['non-string alias ignored', { service: 5 }, { service: 5 }],
    ['level → log.severity, normalised', { level: 'warning' }, { 'log.severity': 'WARN' }],
    ['unrecognised severity alias ignored', { level: 'loud' }, { level: 'loud' }],
    [
      'existing log.severity left as is',
      { 'log.severity': 'Verbose', level: 'info' },
      { 'log.severity': 'Verbose', level: 'info' },
    ],
  ])('%s', (_name, input, want) => {
    const attrs = { ...input };
    normalizeAliases(attrs);
    expect(attrs).toEqual(want);
  });
});

describe('normalizeSeverity', () => {
  it.each([
    ['trace', 'TRACE'],
    ['DEBUG', 'DEBUG'],
    ['information', 'INFO'],
    ['Notice', 'INFO'],
    ['log', 'INFO'],
    ['warning', 'WARN'],
    ['err', 'ERROR'],
    ['alert', 'ERROR'],
    ['crit', 'FATAL'],
    ['emergency', 'FATAL'],
    ['panic', 'FATAL'],
    ['verbose', undefined],
    ['', undefined],
    [3, undefined],
  ])('%j → %j', (input, want) => {
    expect(normalizeSeverity(input)).toBe(want);
  });
});

describe('copyStableNames', () => {
  it.each<[string, AttrMap, AttrMap]>([
    [
      'stable names copied to the old ones, kept',
      { 'deployment.environment.name': 'prod', 'db.system.name': 'redis', 'db.query.text': 'GET k' },
      {
        'deployment.environment.name': 'prod',
        'db.system.name': 'redis',
        'db.query.text': 'GET k',
        'deployment.environment': 'prod',
        'db.system': 'redis',
        'db.statement': 'GET k',
      },
    ],
    [
      'db.operation.name and db.collection.name',
      { 'db.operation.name': 'find', 'db.collection.name': 'users' },
      { 'db.operation.name': 'find', 'db.collection.name': 'users', 'db.operation': 'find', 'db.sql.table': 'users' },
    ],
    [
      'old name present wins',
      { 'db.system': 'mysql', 'db.system.name': 'x' },
      { 'db.system': 'mysql', 'db.system.name': 'x' },
    ],
    [
      'empty or non-string ignored',
      { 'db.system.name': '', 'db.query.text': 5 },
      { 'db.system.name': '', 'db.query.text': 5 },
    ],
  ])('%s', (_name, input, want) => {
    const attrs = { ...input };
    copyStableNames(attrs);
    expect(attrs).toEqual(want);
  });
});
