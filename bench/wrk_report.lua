-- wrk reporter for bench/load.py: one JSON line with throughput, latency percentiles and
-- every kind of error (a 304 counts as a success; 4xx and 5xx as status errors).
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests": %d, "seconds": %.3f, "rps": %.1f, "p50_ms": %.2f, "p95_ms": %.2f, ' ..
    '"p99_ms": %.2f, "connect_errors": %d, "read_errors": %d, "write_errors": %d, ' ..
    '"status_errors": %d, "timeouts": %d}\n',
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(95) / 1000,
    latency:percentile(99) / 1000, e.connect, e.read, e.write, e.status, e.timeout))
end
