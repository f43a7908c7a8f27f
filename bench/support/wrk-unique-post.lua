-- Loaded by bench/create-throughput.ts for ARC events: every request a POST of WRK_BODY with each
-- "__UNIQUE__" in it replaced by an id of its own, so each event is new (an ARC event_id seen before
-- would return the original notification instead of a create). The requests are made before the load
-- starts, so wrk spends no more time per request than on a fixed body; past the pool, each is made on
-- the spot. The report (`done`) is wrk-report.lua's.
dofile(os.getenv("WRK_REPORT_LUA"))

local POOL = 20000
math.randomseed(os.time())
local prefix = string.format("%d-%d-", os.time(), math.random(1000000000))
local body = os.getenv("WRK_BODY")
local path = os.getenv("WRK_PATH")
local headers = { ["Content-Type"] = "application/json" }
local authorization = os.getenv("WRK_AUTHORIZATION")
if authorization ~= nil and authorization ~= "" then
  headers["Authorization"] = authorization
end

local function make(n)
  return wrk.format("POST", path, headers, (body:gsub("__UNIQUE__", prefix .. n)))
end

-- In init, once wrk knows the Host header the requests must carry.
local pool = {}
init = function()
  for n = 1, POOL do
    pool[n] = make(n)
  end
end

local counter = 0
request = function()
  counter = counter + 1
  return pool[counter] or make(counter)
end
