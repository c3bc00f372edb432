import { readdirSync, readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { SideMeter } from '../relay/formats/side-meter.js';
import type { Usage } from '../relay/types.js';

/** A fixture of a side meter's test: the upstream SSE body, fed to the meter in pieces of `pieceBytes` bytes. */
export interface MeterCase<E> {
  model: string;
  sse: string;
  pieceBytes: number;
  expected: E & { usage: Usage | null; sawStop: boolean; error: unknown; firstToken: boolean };
}

/** Every case of a meter fixture folder, in name order, as [file name, case] pairs for it.each. */
export function meterCases<E>(dir: URL): Array<[string, MeterCase<E>]> {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => [f, JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as MeterCase<E>]);
}

/** Feeds a case to the meter and checks what every side meter must do: forward each byte unchanged, read the end. */
export function runMeterCase<E>(meter: SideMeter<object> & { sawStop: boolean; error: unknown }, c: MeterCase<E>): void {
  const bytes = Buffer.from(c.sse);
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += c.pieceBytes) out.push(meter.push(bytes.subarray(i, i + c.pieceBytes)));
  meter.finish();
  expect(Buffer.concat(out).equals(bytes)).toBe(true);
  expect(meter.usage).toEqual(c.expected.usage);
  expect(meter.sawStop).toBe(c.expected.sawStop);
  expect(meter.error).toEqual(c.expected.error);
  expect(meter.firstTokenAt > 0).toBe(c.expected.firstToken);
}
