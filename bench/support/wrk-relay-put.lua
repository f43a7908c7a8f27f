-- Loaded by bench/relay-ingest.ts: every request a PUT of a new notification id with its own
-- Idempotency-Key, so each one is a fresh insert on the relay and on its baseline. The report (`done`)
-- is wrk-report.lua's.
dofile(os.getenv("WRK_REPORT_LUA"))

math.randomseed(os.time())
local prefix = string.format("%d-%d-", os.time(), math.random(1000000000))
local counter = 0
local body = os.getenv("WRK_BODY")
local headers = { ["Content-Type"] = "application/json" }
local authorization = os.getenv("WRK_AUTHORIZATION")
if authorization ~= nil and authorization ~= "" then
  headers["Authorization"] = authorization
end

request = function()
  counter = counter + 1
  local id = prefix .. counter
  headers["Idempotency-Key"] = id
  return wrk.format("PUT", "/v1/notifications/" .. id, headers, body)
end
