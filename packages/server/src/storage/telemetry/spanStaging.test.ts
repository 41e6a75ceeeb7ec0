import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STAGE_FILE_MIN_BYTES, stagedFile, stageSpans, unstageSpans } from './spanStaging';

const dir = mkdtempSync(join(tmpdir(), 'lantern-staging-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const encoded = (bytes: number) => ({
  rows: 3,
  index: Buffer.alloc(bytes / 2, 'i'),
  data: Buffer.alloc(bytes / 2, 'd'),
});

describe('stageSpans', () => {
  it('writes a large chunk to one file per table and removes them on unstage', async () => {
    const chunk = stageSpans(dir, encoded(STAGE_FILE_MIN_BYTES));
    expect(chunk).toMatchObject({
      rows: 3,
      indexBytes: STAGE_FILE_MIN_BYTES / 2,
      dataBytes: STAGE_FILE_MIN_BYTES / 2,
      bytes: null,
    });
    expect(readFileSync(stagedFile(chunk.file!, 'index')).toString()).toBe('i'.repeat(STAGE_FILE_MIN_BYTES / 2));
    expect(readFileSync(stagedFile(chunk.file!, 'data')).toString()).toBe('d'.repeat(STAGE_FILE_MIN_BYTES / 2));
    await unstageSpans([chunk]);
    await unstageSpans([chunk]); // twice is harmless
    expect(existsSync(stagedFile(chunk.file!, 'index'))).toBe(false);
    expect(existsSync(stagedFile(chunk.file!, 'data'))).toBe(false);
  });

  it('keeps a small chunk, or any chunk when there is no staging directory, in memory', () => {
    const small = stageSpans(dir, encoded(1024));
    expect(small.file).toBeNull();
    expect(Buffer.from(small.bytes!.index).toString()).toBe('i'.repeat(512));
    expect(stageSpans(null, encoded(STAGE_FILE_MIN_BYTES * 2)).file).toBeNull();
  });
});
