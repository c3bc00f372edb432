// CPU per relayed call of the model request limit (server/src/relay/model-rate-limit.ts) on one node (limits in
// memory), for 10,000 users: switched off, admitting (both counters, the success recorded when the answer ends), and
// refusing; plus the per-address check of a console call. Run from the repository root after `npm run build`:
//   node bench/micro-rate-limit.mjs [--server server/dist] [--rounds 7]
// Each figure is the best of several rounds (interference from other processes only ever adds time).
import { EventEmitter } from 'node:events';
import { builtServer, cpuBench } from './lib/micro.mjs';

const USERS = 10_000;
const { ROUNDS, imp } = builtServer();
const { limitModelRequests } = await imp('relay/model-rate-limit.js');
const { MemoryRateLimiter } = await imp('services/rate-limit/memory.js');
const bench = cpuBench(ROUNDS);

const values = {
  ModelRequestRateLimitEnabled: false,
  ModelRequestRateLimitDurationMinutes: 1,
  ModelRequestRateLimitCount: 1000,
  ModelRequestRateLimitSuccessCount: 1000,
};
const rateLimiter = new MemoryRateLimiter();
const ctx = { options: { get: (key) => values[key] }, rateLimiter };

/** A relayed call of one of USERS users; its response ends (a success) right after the check. */
class Response extends EventEmitter {
  headersSent = true;
  statusCode = 200;
}
const inputs = Array.from({ length: USERS }, (_, i) => ({ playground: false, caller: { user: { id: i + 1 } }, ex: { res: new Response() } }));

const N = 200_000;
console.log(`model request limit, ${USERS} users, best of ${ROUNDS} rounds:`);
bench('switched off (ModelRequestRateLimitEnabled false)', N * 5, (i) => limitModelRequests(ctx, inputs[i % USERS]));

values.ModelRequestRateLimitEnabled = true;
bench('admitted: total + success windows, success recorded at the end', N, (i) => {
  const input = inputs[i % USERS];
  limitModelRequests(ctx, input);
  input.ex.res.emit('close');
});

values.ModelRequestRateLimitCount = 0;
bench('admitted: success window only (ModelRequestRateLimitCount 0)', N, (i) => {
  const input = inputs[i % USERS];
  limitModelRequests(ctx, input);
  input.ex.res.emit('close');
});

values.ModelRequestRateLimitCount = 1;
values.ModelRequestRateLimitSuccessCount = 1_000_000;
const full = { playground: false, caller: { user: { id: -1 } }, ex: { res: new Response() } };
limitModelRequests(ctx, full);
bench('refused (the 429 error built and thrown)', N, () => {
  try {
    limitModelRequests(ctx, full);
  } catch {
    // the refusal
  }
});

const window = { max: 180, windowMs: 180_000 };
const addresses = Array.from({ length: USERS }, (_, i) => ({ key: `GA:10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, ...window }));
bench('per-address console check (GLOBAL_API_RATE_LIMIT, admitted)', N, (i) => rateLimiter.admit(null, addresses[i % USERS]));
await rateLimiter.close();
