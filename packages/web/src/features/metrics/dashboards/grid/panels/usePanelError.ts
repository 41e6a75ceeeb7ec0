import { useEffect } from 'react';
import { queryError } from '../units';

/** Reports a panel's error (request failure or a query part the server refused) to its card. */
export function usePanelError(
  onError: ((error: string | undefined) => void) | undefined,
  err: Error | null,
  parts: { query: string; error: string }[] | undefined,
): string | undefined {
  const error = err ? err.message : queryError(parts);
  useEffect(() => onError?.(error), [onError, error]);
  return error;
}
