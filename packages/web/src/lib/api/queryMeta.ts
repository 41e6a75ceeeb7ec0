/**
 * Per-query and per-mutation flags read by the global error handling in app/AppQueryProvider.
 * `silent`: the screen shows the failure itself, so no error toast.
 */
export interface AppQueryMeta extends Record<string, unknown> {
  silent?: boolean;
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: AppQueryMeta;
    mutationMeta: AppQueryMeta;
  }
}
