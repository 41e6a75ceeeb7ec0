// The engine's one error type (errorType as in Prometheus's HTTP API) and Prometheus-style positions.

/** errorType as in Prometheus's API: bad_data (parse/type errors, 400), execution (422), timeout (503). */
export class PromQLError extends Error {
  constructor(
    public errorType: 'bad_data' | 'execution' | 'timeout',
    message: string,
  ) {
    super(message);
    this.name = 'PromQLError';
  }
}

/** `line:col: parse error: msg` as Prometheus prints it (col 1-based, counted from the last newline). */
export function parseError(query: string, offset: number, msg: string): PromQLError {
  let line = 1;
  let lastBreak = -1;
  for (let i = 0; i < Math.min(offset, query.length); i++) {
    if (query[i] === '\n') {
      line++;
      lastBreak = i;
    }
  }
  return new PromQLError('bad_data', `${line}:${offset - lastBreak}: parse error: ${msg}`);
}
