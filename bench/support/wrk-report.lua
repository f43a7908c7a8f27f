-- Loaded by bench/support/wrk.ts: the method and body come from the environment, and `done` prints
-- one JSON line the bench parses: counts, errors, and 1000 latency quantiles (µs) so that several
-- runs merge into exact-enough percentiles.
wrk.method = os.getenv("WRK_METHOD") or "GET"
local body = os.getenv("WRK_BODY")
if body ~= nil and body ~= "" then
  wrk.body = body
end

done = function(summary, latency, requests)
  local quantiles = {}
  for i = 1, 1000 do
    quantiles[i] = string.format("%d", latency:percentile(i / 10))
  end
  local errors = summary.errors
  io.write(string.format(
    'WRK_RESULT {"requests":%d,"durationMicros":%d,"socketErrors":%d,"non2xx":%d,"quantilesMicros":[%s]}\n',
    summary.requests,
    summary.duration,
    errors.connect + errors.read + errors.write + errors.timeout,
    errors.status,
    table.concat(quantiles, ",")
  ))
end
