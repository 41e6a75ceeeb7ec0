import { describe, expect, it } from 'vitest';
import { buildDsn, DsnError, parseDsn } from './dsn';
import { looksLikeTraceId, normalizeTraceId } from './traceId';

describe('parseDsn', () => {
  it.each([
    [
      'http://secret@localhost:14318/1',
      { scheme: 'http', token: 'secret', host: 'localhost', port: 14318, projectId: 1, grpcPort: null },
    ],
    [
      'https://tok@lantern.example.com/42',
      { scheme: 'https', token: 'tok', host: 'lantern.example.com', port: null, projectId: 42, grpcPort: null },
    ],
    [
      'http://tok@localhost:14318?grpc=14317',
      { scheme: 'http', token: 'tok', host: 'localhost', port: 14318, projectId: null, grpcPort: 14317 },
    ],
    [
      'http://tok@localhost:14318/',
      { scheme: 'http', token: 'tok', host: 'localhost', port: 14318, projectId: null, grpcPort: null },
    ],
  ])('parses %s', (text, expected) => {
    expect(parseDsn(text)).toEqual(expected);
  });

  it.each([
    ['not a url', /not a URL/],
    ['ftp://tok@localhost/1', /scheme/],
    ['http://localhost:14318/1', /token/],
    ['http://tok@localhost:14318/1/', /project id/],
    ['http://tok@localhost:14318/abc', /project id/],
    ['http://tok@localhost:14318/99999999999', /project id/],
    ['http://tok@localhost:14318/1?grpc=port', /grpc port/],
  ])('rejects %s', (text, message) => {
    expect(() => parseDsn(text)).toThrow(DsnError);
    expect(() => parseDsn(text)).toThrow(message);
  });

  it('round-trips what buildDsn makes', () => {
    const dsn = buildDsn({ scheme: 'http', token: 'a b', host: 'h', port: 14317, projectId: 3 });
    expect(dsn).toBe('http://a%20b@h:14317/3');
    expect(parseDsn(dsn).token).toBe('a b');
  });
});

describe('trace ids', () => {
  it.each([
    ['0AF7651916CD43DD8448EB211C80319C', '0af7651916cd43dd8448eb211c80319c'],
    ['0af76519-16cd-43dd-8448-eb211c80319c', '0af7651916cd43dd8448eb211c80319c'],
    ['8448eb211c80319c', '00000000000000008448eb211c80319c'],
    [' 0af7651916cd43dd8448eb211c80319c ', '0af7651916cd43dd8448eb211c80319c'],
    ['xyz', null],
    ['0af7651916cd43dd8448eb211c80319', null],
  ])('normalizes %s', (input, expected) => {
    expect(normalizeTraceId(input)).toBe(expected);
  });

  it('jumps only for full trace ids', () => {
    expect(looksLikeTraceId('0af7651916cd43dd8448eb211c80319c')).toBe(true);
    expect(looksLikeTraceId('0af76519-16cd-43dd-8448-eb211c80319c')).toBe(true);
    expect(looksLikeTraceId('8448eb211c80319c')).toBe(false);
    expect(looksLikeTraceId('GET /users')).toBe(false);
  });
});
