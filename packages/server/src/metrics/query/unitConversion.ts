/**
 * Number literals next to a series are read in the series' unit (reference query §3.4): a
 * duration literal (held in ns) or a byte size (held in bytes) is converted into the metric's
 * unit, so `p99($d) > 100ms` on a `milliseconds` metric compares with 100. Plain numbers stay as
 * written. A duration or size next to a unitless or unrelated series is an error.
 */
const NS: Record<string, number> = { nanoseconds: 1, microseconds: 1e3, milliseconds: 1e6, seconds: 1e9 };
const BYTES: Record<string, number> = {
  bytes: 1,
  kilobytes: 1024,
  megabytes: 1024 ** 2,
  gigabytes: 1024 ** 3,
  terabytes: 1024 ** 4,
};

export class UnitError extends Error {}

export function convertLiteral(
  n: { value: number; unit: 'none' | 'duration' | 'bytes'; text: string },
  seriesUnit: string,
): number {
  if (n.unit === 'none') return n.value;
  const table = n.unit === 'duration' ? NS : BYTES;
  const factor = table[seriesUnit];
  if (factor === undefined) {
    throw new UnitError(
      `can't convert ${n.text} from "${n.unit === 'duration' ? 'nanoseconds' : 'bytes'}" to "${seriesUnit}"`,
    );
  }
  return n.value / factor;
}
