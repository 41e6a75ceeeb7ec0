import { ApiError, ContractError } from './apiClient';

/** Spec §7 / §9: a read retries 2 times with an exponential delay (writes never: see queryClient.ts). */
export const MAX_RETRIES = 2;

/** Client errors and contract drift will answer the same way next time, so only transient failures retry. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES) return false;
  if (error instanceof ContractError) return false;
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return true;
}

/** 0.5 s, 1 s, 2 s ... capped at 8 s. */
export function retryDelay(attempt: number): number {
  return Math.min(500 * 2 ** attempt, 8000);
}
