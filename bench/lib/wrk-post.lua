-- wrk script for bench/workers.mjs: POSTs BENCH_BODY with BENCH_KEY as the bearer token, and prints one JSON line
-- of totals and latency percentiles (µs) when the run is done.
wrk.method = "POST"
wrk.body = os.getenv("BENCH_BODY")
wrk.headers["content-type"] = "application/json"
wrk.headers["authorization"] = "Bearer " .. os.getenv("BENCH_KEY")

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"duration_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"p50_us":%d,"p99_us":%d}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
