import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { adaptHeapGrowth, FEW_CALLS, heapGrowthIsTight, MANY_CALLS } from './heap-growth.js';
import { InFlightCalls } from './relay/in-flight.js';

describe('heap growth follows the calls in flight', () => {
  it('leaves the tight setting past MANY_CALLS and takes it again under FEW_CALLS, counted by the in-flight registry', () => {
    adaptHeapGrowth();
    const calls = new InFlightCalls();
    const responses = Array.from({ length: MANY_CALLS }, () => ({}) as ServerResponse);
    for (const res of responses.slice(0, -1)) calls.add(res, () => {});
    expect(heapGrowthIsTight()).toBe(true);
    calls.add(responses.at(-1)!, () => {});
    expect(heapGrowthIsTight()).toBe(false);
    // A response deleted twice (or never added) does not move the count.
    calls.delete(responses[0]);
    calls.delete(responses[0]);
    calls.delete({} as ServerResponse);
    for (const res of responses.slice(1, MANY_CALLS - FEW_CALLS - 1)) calls.delete(res);
    expect(heapGrowthIsTight()).toBe(false);
    calls.delete(responses[MANY_CALLS - FEW_CALLS - 1]);
    expect(heapGrowthIsTight()).toBe(true);
  });
});
