/**
 * Values by a 64-bit id given as two uint32 halves (remote write's series ids): open addressing on
 * typed arrays. A Map keyed by the id as one number (53 bits of it: a heap number, hashed at each
 * lookup) was 7 % of the main thread's busy time on the load (docs/benchmarks.md, "Remote
 * write, fifth round"). No removal: remote write drops a whole generation at a time.
 */
export class IdTable<V> {
  private his: Int32Array;
  private los: Int32Array;
  private vals: (V | undefined)[];
  private mask: number;
  private count = 0;

  constructor(capacity = 1024) {
    const slots = 1 << Math.ceil(Math.log2(Math.max(16, 2 * capacity)));
    this.his = new Int32Array(slots);
    this.los = new Int32Array(slots);
    this.vals = new Array<V | undefined>(slots).fill(undefined);
    this.mask = slots - 1;
  }

  get size(): number {
    return this.count;
  }

  get(hi: number, lo: number): V | undefined {
    const h = hi | 0;
    const l = lo | 0;
    // The ids are bytes of a SHA-1: their low half alone spreads them.
    for (let i = l & this.mask; ; i = (i + 1) & this.mask) {
      const v = this.vals[i];
      if (v === undefined) return undefined;
      if (this.los[i] === l && this.his[i] === h) return v;
    }
  }

  set(hi: number, lo: number, value: V): void {
    if (2 * (this.count + 1) > this.vals.length) this.grow();
    const h = hi | 0;
    const l = lo | 0;
    for (let i = l & this.mask; ; i = (i + 1) & this.mask) {
      if (this.vals[i] === undefined) {
        this.his[i] = h;
        this.los[i] = l;
        this.vals[i] = value;
        this.count++;
        return;
      }
      if (this.los[i] === l && this.his[i] === h) {
        this.vals[i] = value;
        return;
      }
    }
  }

  private grow(): void {
    const { his, los, vals } = this;
    const bigger = new IdTable<V>(vals.length);
    for (let i = 0; i < vals.length; i++) if (vals[i] !== undefined) bigger.set(his[i], los[i], vals[i]!);
    this.his = bigger.his;
    this.los = bigger.los;
    this.vals = bigger.vals;
    this.mask = bigger.mask;
  }
}
