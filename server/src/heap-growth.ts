import v8 from 'node:v8';

/*
 * How far V8 lets the old generation grow past what survived the last full collection before the next one.
 *
 * With few calls in flight the live heap is small (~30 MB) and V8's own factor (up to 4x for a fast collector) let it
 * fill with ~100 MB of garbage before a full GC: at 20% peak memory follows the live size (docs/decisions.md,
 * "Memory"). With thousands of streams open the live heap is large (~25 KB a stream) and grows as streams arrive, so
 * at 20% a full GC marks all of it again and again, and the pauses land on first bytes: 5,000 streams opened at 500 a
 * second had first byte p99 176-212 ms at 20% against 58-150 ms with V8's own factor (`npm run bench:streams`,
 * "Thousands of streams"). So the tight setting holds while calls in flight are few, and V8's own beyond MANY, until
 * they fall back under FEW. V8 reads the flag at every full GC.
 */

const TIGHT = '--heap-growing-percent=20';
const V8_OWN = '--heap-growing-percent=0';
export const MANY_CALLS = 1000;
export const FEW_CALLS = 200;

let adaptive = false;
let tight = false;

/** Turns the tight setting on now and lets the number of calls in flight move it (the server process only). */
export function adaptHeapGrowth(): void {
  adaptive = true;
  tight = true;
  v8.setFlagsFromString(TIGHT);
}

/** Told the number of calls in flight when it crosses MANY_CALLS upwards or FEW_CALLS downwards. */
export function callsInFlight(n: number): void {
  if (!adaptive) return;
  if (tight && n >= MANY_CALLS) {
    tight = false;
    v8.setFlagsFromString(V8_OWN);
  } else if (!tight && n <= FEW_CALLS) {
    tight = true;
    v8.setFlagsFromString(TIGHT);
  }
}

export function heapGrowthIsTight(): boolean {
  return tight;
}
