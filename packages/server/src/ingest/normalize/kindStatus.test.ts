import { describe, it, expect } from 'vitest';
import { spanKind, statusCode } from './kindStatus';

describe('spanKind (reference ingest §2.2)', () => {
  it.each([
    [0, 'internal'],
    [1, 'internal'],
    [2, 'server'],
    [3, 'client'],
    [4, 'producer'],
    [5, 'consumer'],
    [9, 'internal'],
  ])('%i → %s', (n, want) => {
    expect(spanKind(n)).toBe(want);
  });
});

describe('statusCode', () => {
  it.each([
    [0, 'unset'],
    [1, 'ok'],
    [2, 'error'],
    [7, 'unset'],
  ])('%i → %s', (n, want) => {
    expect(statusCode(n)).toBe(want);
  });
});
