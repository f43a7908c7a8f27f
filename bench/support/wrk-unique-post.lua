-- Loaded by bench/create-throughput.ts for ARC events: every request a POST of WRK_BODY with each
-- "__UNIQUE__" in it replaced by an id of its own, so each event is new (an ARC event_id seen before
-- would return the original notification instead of a create). The report (`done`) is wrk-report.lua's.
dofile(os.getenv("WRK_REPORT_LUA"))

math.randomseed(os.time())
local prefix = string.format("%d-%d-", os.time(), math.random(1000000000))
local counter = 0
local body = os.getenv("WRK_BODY")
local path = os.getenv("WRK_PATH")
local headers = { ["Content-Type"] = "application/json" }
local authorization = os.getenv("WRK_AUTHORIZATION")
if authorization ~= nil and authorization ~= "" then
  headers["Authorization"] = authorization
end

request = function()
  counter = counter + 1
  return wrk.format("POST", path, headers, (body:gsub("__UNIQUE__", prefix .. counter)))
end
