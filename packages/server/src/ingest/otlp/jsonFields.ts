import { OtlpDecodeError } from './decodeError';
import { typeName } from './ids';

/**
 * Typed field access for OTLP/JSON objects. The OTLP JSON mapping uses lowerCamelCase keys, but
 * protobuf JSON parsers must also accept the proto (snake_case) names, and some collectors send
 * them, so every read tries both. `null` means "not set", as in proto3 JSON.
 */

export type JsonObject = Record<string, unknown>;
export type Path = () => string;

/** Reads `camel`, else `snake` (when the two differ). */
export function field(obj: JsonObject, camel: string, snake?: string): unknown {
  const v = obj[camel];
  if (v !== undefined && v !== null) return v;
  return snake === undefined ? undefined : obj[snake];
}

export function asObject(v: unknown, path: Path): JsonObject | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v))
    throw new OtlpDecodeError(`${path()}: expected an object, got ${typeName(v)}`);
  return v as JsonObject;
}

export function asArray(v: unknown, path: Path): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new OtlpDecodeError(`${path()}: expected an array, got ${typeName(v)}`);
  return v;
}

export function asString(v: unknown, path: Path): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new OtlpDecodeError(`${path()}: expected a string, got ${typeName(v)}`);
  return v;
}

/**
 * A proto enum in JSON: the number (what the OTLP spec asks for) or its proto name (what the
 * canonical protobuf JSON mapping writes), e.g. 2 or "SPAN_KIND_SERVER". Unknown numbers are
 * kept (enums are open in proto3); unknown names are an error.
 */
export function asEnum(v: unknown, names: readonly string[], path: Path): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  if (typeof v === 'string') {
    const i = names.indexOf(v);
    if (i >= 0) return i;
  }
  throw new OtlpDecodeError(`${path()}: expected one of ${names.join(', ')} or its number, got ${JSON.stringify(v)}`);
}

export const SPAN_KIND_NAMES = [
  'SPAN_KIND_UNSPECIFIED',
  'SPAN_KIND_INTERNAL',
  'SPAN_KIND_SERVER',
  'SPAN_KIND_CLIENT',
  'SPAN_KIND_PRODUCER',
  'SPAN_KIND_CONSUMER',
] as const;

export const STATUS_CODE_NAMES = ['STATUS_CODE_UNSET', 'STATUS_CODE_OK', 'STATUS_CODE_ERROR'] as const;

/** SeverityNumber names in proto order (0 = UNSPECIFIED, 1..4 TRACE..TRACE4, ... 21..24 FATAL..FATAL4). */
export const SEVERITY_NUMBER_NAMES = [
  'SEVERITY_NUMBER_UNSPECIFIED',
  ...['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'].flatMap((s) =>
    ['', '2', '3', '4'].map((n) => `SEVERITY_NUMBER_${s}${n}`),
  ),
] as const;
