import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { InflatedTooLarge } from './limit';
import { decodeZstd } from './zstd';

// zstd-codec: libzstd compiled to JavaScript, a real encoder for test bodies (Node 20 has no zstd).
const require = createRequire(import.meta.url);
const { ZstdCodec } = require('zstd-codec') as {
  ZstdCodec: { run(cb: (z: { Streaming: new () => ZstdStreaming }) => void): void };
};
interface ZstdStreaming {
  compressChunks(chunks: Uint8Array[], sizeHint: number, level: number): Uint8Array;
}
const streaming = new Promise<ZstdStreaming>((resolve) => ZstdCodec.run((z) => resolve(new z.Streaming())));
/** A frame without a stated content size, as a streaming encoder (Go's, the Collector's) writes it. */
async function zstdStream(data: Buffer): Promise<Buffer> {
  const z = await streaming;
  const chunks = Array.from({ length: Math.ceil(data.length / (1 << 20)) }, (_, i) =>
    data.subarray(i << 20, (i + 1) << 20),
  );
  return Buffer.from(z.compressChunks(chunks, data.length, 3));
}

const FIXTURE_TEXT = 'lantern lantern lantern lz4 frame fixture, lantern lantern lantern\n';
// `zstd -19 --content-size` (content size and checksum) and `zstd --no-content-size`, zstd CLI 1.5
const CLI_SIZED = '28b52ffd2443250100d86c616e7465726e207a34206672616d6520666978747572652c200a02009caac3f9c601b79ade0b';
const CLI_STREAM =
  '28b52ffd040055010004026c616e7465726e207a34206672616d6520666978747572652c616e7465726e0a02008df2d6e6c205b79ade0b';

const text = Buffer.from(
  Array.from({ length: 20000 }, (_, i) => `log ${i} user=${i % 97} took ${i % 13} ms\n`).join(''),
);

describe('zstd bodies', () => {
  it('decodes frames from the zstd CLI and from libzstd streaming, and concatenated frames', async () => {
    expect(decodeZstd(Buffer.from(CLI_SIZED, 'hex'), 1000).toString()).toBe(FIXTURE_TEXT);
    expect(decodeZstd(Buffer.from(CLI_STREAM, 'hex'), 1000).toString()).toBe(FIXTURE_TEXT);
    const z = await zstdStream(text);
    expect(z.length).toBeLessThan(text.length / 5);
    expect(decodeZstd(z, 1 << 20).equals(text)).toBe(true);
    const two = Buffer.concat([Buffer.from(CLI_SIZED, 'hex'), Buffer.from(CLI_STREAM, 'hex')]);
    expect(decodeZstd(two, 1000).toString()).toBe(FIXTURE_TEXT + FIXTURE_TEXT);
    // a skippable frame in between is skipped
    const skip = Buffer.from('502a4d1803000000616263', 'hex');
    expect(decodeZstd(Buffer.concat([skip, Buffer.from(CLI_SIZED, 'hex')]), 1000).toString()).toBe(FIXTURE_TEXT);
  });

  it('stops a bomb without a stated size at the limit', async () => {
    const bomb = await zstdStream(Buffer.alloc(8 << 20));
    expect(bomb.length).toBeLessThan(4096);
    expect(() => decodeZstd(bomb, 1 << 20)).toThrow(InflatedTooLarge);
  });

  it('refuses from the headers alone a stated size, a window or run-length blocks past the limit', () => {
    // single-segment frame stating 4 GiB of content (8-byte size), no blocks needed to refuse it
    const stated = Buffer.from('28b52ffde0' + '0000000001000000' + '010000', 'hex');
    expect(() => decodeZstd(stated, 1 << 20)).toThrow(InflatedTooLarge);
    // a 2 GiB window (what fzstd would allocate up front)
    const window = Buffer.from('28b52ffd00' + 'a8' + '010000', 'hex');
    expect(() => decodeZstd(window, 1 << 20)).toThrow(InflatedTooLarge);
    // a window of 1 MiB is fine under an 8 MiB floor even with a smaller limit
    expect(decodeZstd(Buffer.from('28b52ffd00' + '50' + '010000', 'hex'), 1024).length).toBe(0);
    // 40 run-length blocks of 1 MiB - 1 (21-bit size) each: 6 bytes of header each, refused unread
    const rle = (last: boolean) => {
      const size = (1 << 20) - 1;
      const h = (size << 3) | (1 << 1) | (last ? 1 : 0);
      return Buffer.from([h & 0xff, (h >> 8) & 0xff, (h >> 16) & 0xff, 0]);
    };
    const blocks = Array.from({ length: 40 }, (_, i) => rle(i === 39));
    const rleBomb = Buffer.concat([Buffer.from('28b52ffd00' + '70', 'hex'), ...blocks]);
    expect(() => decodeZstd(rleBomb, 8 << 20)).toThrow(InflatedTooLarge);
  });

  it('refuses corrupt and truncated frames with an error, not a crash', async () => {
    const z = await zstdStream(text);
    expect(() => decodeZstd(Buffer.from('not zstd'), 1 << 20)).toThrow(/magic/);
    expect(() => decodeZstd(Buffer.alloc(0), 1 << 20)).toThrow(/empty/);
    expect(() => decodeZstd(z.subarray(0, z.length - 10), 1 << 20)).toThrow();
    const reserved = Buffer.from(z);
    reserved[6] |= 0b110; // first block's type: reserved
    expect(() => decodeZstd(reserved, 1 << 20)).toThrow(/reserved block type/);
    expect(() => decodeZstd(Buffer.from('28b52ffd0350', 'hex'), 1 << 20)).toThrow(); // dictionary id cut short
  });
});
