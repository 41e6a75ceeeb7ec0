import type { z } from 'zod';
import { MAX_DB_INT } from '@lantern/shared';
import { AppError } from './appError';

/** A path id as the metadata DB can hold it, or undefined (then nothing has that id: 404). */
export function dbId(text: string): number | undefined {
  if (!/^\d{1,10}$/.test(text)) return undefined;
  const id = Number(text);
  return id >= 1 && id <= MAX_DB_INT ? id : undefined;
}

/** Validates request input against a contract schema; a failure is a 400 naming each bad field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const message = r.error.issues
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
  throw new AppError('invalid_input', 'invalid_input', message);
}
