import { compressFrameSync } from 'lz4-napi';
import { describe, expect, it } from 'vitest';
import { InflatedTooLarge } from './limit';
import { decodeLz4Frames, xxh32 } from './lz4';

const FIXTURE_TEXT = 'lantern lantern lantern lz4 frame fixture, lantern lantern lantern\n';
// `lz4 -BD -BX --content-size -9` (lz4 CLI 1.9): linked blocks, block, content-size and content checksums
const CLI_FRAME =
  '04224d187c404300000000000000ce280000008d6c616e7465726e200800fe027a34206672616d6520666978747572652c230070616e7465726e0af96da5c90000000049dea4b9';

const text = Buffer.from(Array.from({ length: 30000 }, (_, i) => `span ${i} GET /orders/${i % 17}\n`).join(''));
const xx = (s: string) => xxh32(Buffer.from(s), 0, Buffer.byteLength(s));
const lz4Header = (flg: number, bd: number, extra: number[] = []) => {
  const desc = Buffer.from([flg, bd, ...extra]);
  return Buffer.concat([
    Buffer.from('04224d18', 'hex'),
    desc,
    Buffer.from([(xxh32(desc, 0, desc.length) >>> 8) & 0xff]),
  ]);
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};

describe('lz4 frame bodies', () => {
  it('computes xxHash32 like the reference', () => {
    expect(xx('')).toBe(0x02cc5d05);
    expect(xx('a')).toBe(0x550d7456);
    expect(xx('abc')).toBe(0x32d153ff);
    expect(xx('Nobody inspects the spammish repetition')).toBe(0xe2293b2f);
  });

  it('decodes frames from the lz4 CLI (all checksums) and lz4_flex, and concatenated frames', () => {
    expect(decodeLz4Frames(Buffer.from(CLI_FRAME, 'hex'), 1000).toString()).toBe(FIXTURE_TEXT);
    const f = compressFrameSync(text);
    expect(f.length).toBeLessThan(text.length / 4);
    expect(decodeLz4Frames(f, 1 << 20).equals(text)).toBe(true);
    const two = Buffer.concat([Buffer.from(CLI_FRAME, 'hex'), compressFrameSync(Buffer.from('tail'))]);
    expect(decodeLz4Frames(two, 1000).toString()).toBe(FIXTURE_TEXT + 'tail');
    // an uncompressed block (high bit of its size)
    const raw = Buffer.concat([lz4Header(0x60, 0x40), u32(0x8000_0003), Buffer.from('abc'), u32(0)]);
    expect(decodeLz4Frames(raw, 10).toString()).toBe('abc');
  });

  it('stops a bomb at the limit, and refuses a stated content size past it up front', () => {
    const bomb = compressFrameSync(Buffer.alloc(8 << 20));
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(() => decodeLz4Frames(bomb, 1 << 20)).toThrow(InflatedTooLarge);
    const sized = Buffer.concat([lz4Header(0x68, 0x70, [0, 0, 0, 0, 1, 0, 0, 0]), u32(0)]); // states 4 GiB
    expect(() => decodeLz4Frames(sized, 1 << 20)).toThrow(InflatedTooLarge);
  });

  it('refuses corrupt frames: checksums, offsets, lengths, reserved bits', () => {
    const cli = Buffer.from(CLI_FRAME, 'hex');
    const flip = (i: number) => {
      const b = Buffer.from(cli);
      b[i] ^= 0x01;
      return b;
    };
    expect(() => decodeLz4Frames(flip(14), 1000)).toThrow(/header checksum/);
    expect(() => decodeLz4Frames(flip(20), 1000)).toThrow(/block checksum/);
    expect(() => decodeLz4Frames(flip(cli.length - 1), 1000)).toThrow(/content checksum/);
    expect(() => decodeLz4Frames(cli.subarray(0, cli.length - 6), 1000)).toThrow(/cut short/);
    expect(() => decodeLz4Frames(Buffer.from('not lz4 at all'), 1000)).toThrow(/magic/);
    expect(() => decodeLz4Frames(Buffer.concat([lz4Header(0x62, 0x40), u32(0)]), 1000)).toThrow(/reserved/);
    // a match reaching back before the output: token 0x10 (1 literal, match 4), 'a', offset 5
    const before = Buffer.concat([lz4Header(0x60, 0x40), u32(4), Buffer.from([0x10, 0x61, 5, 0]), u32(0)]);
    expect(() => decodeLz4Frames(before, 1000)).toThrow(/offset/);
    // a block larger than the frame's 64 KiB maximum
    const tooBig = Buffer.concat([lz4Header(0x60, 0x40), u32(0x8001_0001), Buffer.alloc(65_537), u32(0)]);
    expect(() => decodeLz4Frames(tooBig, 1 << 20)).toThrow(/maximum/);
  });
});
