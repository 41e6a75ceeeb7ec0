import { mulberry32 } from '@lantern/shared';
/**
 * A small seeded PRNG (mulberry32) so a run's data is reproducible from `--seed`, plus the few
 * draws the generator needs.
 */
export class Rng {
  /** Uniform in [0, 1). */
  readonly next: () => number;

  constructor(seed: number) {
    this.next = mulberry32(seed);
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Log-normal around `median` (sigma in log space): the usual shape of latencies. */
  logNormal(median: number, sigma: number): number {
    const u = Math.max(this.next(), 1e-12);
    const v = this.next();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return median * Math.exp(sigma * z);
  }

  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i += 4) {
      const x = (this.next() * 4294967296) >>> 0;
      for (let j = 0; j < 4 && i + j < n; j++) out[i + j] = (x >>> (8 * j)) & 0xff;
    }
    // An all-zero id is invalid in OTLP; a random one never is in practice, but be sure.
    out[0] |= 1;
    return out;
  }

  hex(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += '0123456789abcdef'[Math.floor(this.next() * 16)];
    return s;
  }
}
