import { describe, expect, it } from 'vitest';
import { ApiError, ContractError } from './apiClient';
import { retryDelay, shouldRetry } from './retryPolicy';

describe('shouldRetry', () => {
  it.each([
    ['a network failure, first time', 0, new ApiError(0, 'network_error', 'x'), true],
    ['a 503, second time', 1, new ApiError(503, 'unavailable', 'x'), true],
    ['a 503 after two retries', 2, new ApiError(503, 'unavailable', 'x'), false],
    ['a 404', 0, new ApiError(404, 'not_found', 'x'), false],
    ['a 401', 0, new ApiError(401, 'unauthenticated', 'x'), false],
    ['contract drift', 0, new ContractError('/api', 'x'), false],
  ])('%s', (_name, count, error, expected) => {
    expect(shouldRetry(count, error)).toBe(expected);
  });
});

describe('retryDelay', () => {
  it('doubles and caps', () => {
    expect([0, 1, 2, 10].map(retryDelay)).toEqual([500, 1000, 2000, 8000]);
  });
});
