-- wrk script for the devconsole ingestion benchmark: POSTs the same /logs batch (BODY_FILE, 50
-- console entries as the extension sends them) with the extension's headers.
--   BODY_FILE=batch.json wrk -s bench/wrk-devconsole-logs.lua http://127.0.0.1:PORT/logs
function init(args)
  local file = assert(io.open(os.getenv("BODY_FILE"), "rb"))
  local body = file:read("*a")
  file:close()
  wrk.method = "POST"
  wrk.body = body
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["X-Gasoline-Client"] = "gasoline-extension/0.7.10"
  wrk.headers["X-Gasoline-Extension-Version"] = "0.7.10"
  wrk.headers["Origin"] = "chrome-extension://abcdefghijklmnopabcdefghijklmnop"
end
