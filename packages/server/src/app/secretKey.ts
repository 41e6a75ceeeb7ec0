import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The configured secret key, or one generated once and kept in the data directory. */
export function resolveSecretKey(configured: string, dataDir: string): string {
  if (configured) return configured;
  const file = join(dataDir, 'secret.key');
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing) return existing;
  } catch {
    // not created yet
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64url');
  writeFileSync(file, key + '\n', { mode: 0o600 });
  return key;
}
