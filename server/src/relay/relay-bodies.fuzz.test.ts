import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../test/databases.js';
import { startEdgeFixture, type EdgeFixture } from '../test/edge-fixture.js';
import { authHeaders, bodiesOf, FUZZ_RUNS, FUZZ_TIMEOUT, heapAfterGc, JSON_ENDPOINTS, sendAndCheck, VIAS } from '../test/relay-fuzz.js';

/*
 * Random bodies to every JSON relay endpoint (OpenAI, Responses, Claude, Gemini), through the relay lane and
 * app.inject, valid ones reaching mock upstreams: valid requests, the same with one field replaced by a wrong type,
 * null, a huge or deeply nested value or removed, random JSON, and text that is not JSON. No answer may be a 5xx of
 * the gateway's own, every error must be in the caller's format, and the heap must stay flat.
 */

const [sqlite] = testDatabases(['sqlite']);

describe('relay bodies, fuzzed', () => {
  let f: EdgeFixture;

  beforeAll(async () => {
    f = await startEdgeFixture(sqlite);
  });
  afterAll(async () => {
    await f?.close();
  });

  const named = (name: string) => JSON_ENDPOINTS.find((e) => e.name === name)!;
  const request = fc
    .record({ name: fc.constantFrom(...JSON_ENDPOINTS.map((e) => e.name)), via: fc.constantFrom(...VIAS), style: fc.nat(1) })
    .chain(({ name, via, style }) => fc.record({ name: fc.constant(name), via: fc.constant(via), style: fc.constant(style), path: named(name).paths, body: bodiesOf(named(name)) }));

  const run = (runs: number, seed?: number) =>
    fc.assert(
      fc.asyncProperty(request, async ({ name, via, style, path, body }) => {
        const endpoint = named(name);
        const headers = { ...authHeaders(endpoint.format, f.key, style), 'content-type': 'application/json' };
        await sendAndCheck(f, { via, format: endpoint.format, request: { path, headers, body } });
      }),
      { numRuns: runs, seed, endOnFailure: true },
    );

  it('answers every body without a crash, a 5xx of its own or an error outside the caller format, with a flat heap', async () => {
    await run(Math.min(FUZZ_RUNS, 40));
    f.forgetUpstreamRequests();
    const before = heapAfterGc();
    await run(FUZZ_RUNS * 4);
    f.forgetUpstreamRequests();
    await f.relay.flush();
    const grown = heapAfterGc() - before;
    expect(grown, `heap grew by ${(grown / 1e6).toFixed(1)} MB`).toBeLessThan(24e6);
  }, FUZZ_TIMEOUT);
});
