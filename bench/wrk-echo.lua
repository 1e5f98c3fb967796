-- wrk script for the HTTP benchmark: POSTs tools/call echo on one MCP session, each request with
-- its own JSON-RPC id ("<thread>-<n>", unique across wrk's threads: a session refuses an id that
-- is already in flight).
--   SESSION=<Mcp-Session-Id> wrk -s bench/wrk-echo.lua URL
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("thread_number", threads)
end

function init(args)
  counter = 0
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Accept"] = "application/json, text/event-stream"
  wrk.headers["MCP-Protocol-Version"] = "2025-11-25"
  local session = os.getenv("SESSION")
  if session and session ~= "" then wrk.headers["Mcp-Session-Id"] = session end
  -- CLOSE=1: a new connection for every request (the TLS handshake rate).
  if os.getenv("CLOSE") == "1" then wrk.headers["Connection"] = "close" end
end

function request()
  counter = counter + 1
  local body = string.format(
    '{"jsonrpc":"2.0","id":"%d-%d","method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}',
    thread_number or 0, counter)
  return wrk.format(nil, nil, nil, body)
end
