import { compressSync, Compressor } from 'snappy';
import { describe, expect, it } from 'vitest';
import { InflatedTooLarge } from './limit';
import { decodeSnappyBlock, decodeSnappyFramed, isFramedSnappy, maskedCrc32c, snappyBlockLength } from './snappy';

const text = Buffer.from(Array.from({ length: 10000 }, (_, i) => `span ${i} GET /orders/${i % 17}\n`).join(''));

/** Framed output of the snappy package's own streaming (framing-format) compressor. */
async function framed(data: Buffer): Promise<Buffer> {
  const c = new Compressor();
  return Buffer.concat([c.update(data), await c.finish()]);
}

const chunk = (type: number, data: Uint8Array) =>
  Buffer.concat([Buffer.from([type, data.length & 0xff, (data.length >> 8) & 0xff, data.length >> 16]), data]);
const crcLE = (data: Uint8Array) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(maskedCrc32c(data));
  return b;
};
const IDENT = chunk(0xff, Buffer.from('sNaPpY'));

describe('snappy: framed or block', () => {
  it('tells framed streams from blocks by the stream-identifier chunk', async () => {
    const f = await framed(text);
    expect(f.subarray(0, 10).toString('hex')).toBe('ff060000734e61507059');
    expect(isFramedSnappy(f)).toBe(true);
    expect(isFramedSnappy(compressSync(text))).toBe(false);
    expect(isFramedSnappy(compressSync(Buffer.alloc(0)))).toBe(false);
    expect(isFramedSnappy(f.subarray(0, 9))).toBe(false);
    // a block whose first bytes happen to be 0xff 0x06 (a 895-byte length) is still a block
    const block = compressSync(Buffer.alloc(895, 7));
    expect(block.subarray(0, 2).toString('hex')).toBe('ff06');
    expect(isFramedSnappy(block)).toBe(false);
  });

  it('decodes framed streams (several 64 KiB chunks) and blocks', async () => {
    expect(text.length).toBeGreaterThan(65_536 * 2);
    expect(decodeSnappyFramed(await framed(text), 1 << 20).equals(text)).toBe(true);
    expect(decodeSnappyBlock(compressSync(text), 1 << 20).equals(text)).toBe(true);
    // uncompressed (0x01) and padding (0xfe) chunks, and a repeated stream identifier
    const raw = Buffer.from('hello snappy');
    const stream = Buffer.concat([
      IDENT,
      chunk(0xfe, Buffer.alloc(3)),
      chunk(0x01, Buffer.concat([crcLE(raw), raw])),
      IDENT,
    ]);
    expect(decodeSnappyFramed(stream, 100).toString()).toBe('hello snappy');
  });

  it('refuses a block stating more than the limit before decoding it', () => {
    // 5 bytes that state a 4 GiB block: nothing is allocated
    const bomb = Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]);
    expect(snappyBlockLength(bomb)).toBe(0xffff_ffff);
    expect(() => decodeSnappyBlock(bomb, 1 << 20)).toThrow(InflatedTooLarge);
    expect(() => decodeSnappyBlock(compressSync(Buffer.alloc(2 << 20)), 1 << 20)).toThrow(InflatedTooLarge);
  });

  it('stops a framed stream at the limit', async () => {
    const f = await framed(Buffer.alloc(4 << 20));
    expect(f.length).toBeLessThan(1 << 20);
    expect(() => decodeSnappyFramed(f, 1 << 20)).toThrow(InflatedTooLarge);
  });

  it('decodes blocks as the snappy package wrote them: random, repeated and run-length data of many sizes', () => {
    let seed = 7;
    const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) / (1 << 24);
    const inputs: Buffer[] = [Buffer.alloc(0), Buffer.from('a'), Buffer.alloc(100_000, 'ab'), text];
    for (const size of [1, 15, 16, 17, 60, 61, 255, 256, 65_535, 65_536, 65_537, 300_000]) {
      inputs.push(Buffer.from(Array.from({ length: size }, () => Math.floor(rand() * 256))));
      // short runs and near repeats: overlapping copies (offset < length) and every copy kind
      inputs.push(
        Buffer.from(
          Array.from({ length: size }, (_, i) => (rand() < 0.1 ? 65 + Math.floor(rand() * 4) : 97 + (i % 3))),
        ),
      );
    }
    for (const input of inputs) expect(decodeSnappyBlock(compressSync(input), 1 << 20).equals(input)).toBe(true);
  });

  it('refuses every cut and damaged block with an error, never more bytes than it states', () => {
    const block = compressSync(
      Buffer.concat([text.subarray(0, 3000), Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 7919) % 251))]),
    );
    for (let end = 1; end < block.length; end += 7)
      expect(() => decodeSnappyBlock(block.subarray(0, end), 1 << 20)).toThrow(/snappy/);
    let threw = 0;
    for (let at = 3; at < block.length; at += 5) {
      const bad = Buffer.from(block);
      bad[at] ^= 0x5a;
      try {
        expect(decodeSnappyBlock(bad, 1 << 20).length).toBe(3300);
      } catch (err) {
        expect((err as Error).message).toMatch(/snappy/);
        threw++;
      }
    }
    expect(threw).toBeGreaterThan(0);
    // a copy before any output, and one reaching back past the start
    expect(() => decodeSnappyBlock(Buffer.from([4, 0x01, 0x00]), 100)).toThrow(/offset 0 at 0/);
    expect(() => decodeSnappyBlock(Buffer.from([8, 0x00, 0x61, 0x01, 0x02]), 100)).toThrow(/offset 2 at 1/);
  });

  it('refuses corrupt framed streams and blocks', async () => {
    const f = await framed(text);
    const badCrc = Buffer.from(f);
    badCrc[14] ^= 1; // first data chunk's checksum
    expect(() => decodeSnappyFramed(badCrc, 1 << 20)).toThrow(/CRC-32C/);
    expect(() => decodeSnappyFramed(f.subarray(0, f.length - 3), 1 << 20)).toThrow(/cut short/);
    expect(() => decodeSnappyFramed(f.subarray(10), 1 << 20)).toThrow(/stream identifier/);
    expect(() => decodeSnappyFramed(Buffer.concat([IDENT, chunk(0x02, Buffer.alloc(1))]), 100)).toThrow(/unskippable/);
    const big = compressSync(Buffer.alloc(65_537));
    expect(() =>
      decodeSnappyFramed(Buffer.concat([IDENT, chunk(0x00, Buffer.concat([Buffer.alloc(4), big]))]), 1 << 20),
    ).toThrow(/at most 65536/);
    expect(() => decodeSnappyBlock(Buffer.from('not snappy at all'), 1 << 20)).toThrow();
    expect(() => decodeSnappyBlock(Buffer.from([0x80, 0x80]), 1 << 20)).toThrow(/ends inside its length/);
  });
});
