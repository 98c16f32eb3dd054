-- wrk script of benchmarks/concurrency.py: every request acts in one of the sessions given after "--"
-- (round-robin, each thread starting at its own offset), alternating the three actions the Python
-- players make: system.list_files, GET .../files, word.read_file of the session's marker.
local counter = 0
local threads = {}

function setup(thread)
  thread:set("offset", #threads * 17)
  table.insert(threads, thread)
end

function init(args)
  sessions = {}
  markers = {}
  for i = 1, #args, 2 do
    table.insert(sessions, args[i])
    table.insert(markers, args[i + 1])
  end
  token = os.getenv("OFFICESIM_TOKEN")
  headers = {["Content-Type"] = "application/json"}
  if token and token ~= "" then headers["Authorization"] = "Bearer " .. token end
  errors = 0
end

function request()
  local n = counter + offset
  counter = counter + 1
  local index = math.floor(n / 3) % #sessions + 1
  local sid = sessions[index]
  local kind = n % 3
  if kind == 0 then
    return wrk.format("POST", "/sessions/" .. sid .. "/actions", headers,
                      '{"app":"system","action":"list_files","args":{}}')
  elseif kind == 1 then
    return wrk.format("GET", "/sessions/" .. sid .. "/files", headers)
  end
  return wrk.format("POST", "/sessions/" .. sid .. "/actions", headers,
                    '{"app":"word","action":"read_file","args":{"file_path":"' .. markers[index] .. '"}}')
end

function response(status, headers, body)
  if status ~= 200 or string.find(body, '"ok":false', 1, true) then errors = errors + 1 end
end

function done(summary, latency, requests)
  local failed = 0
  for _, thread in ipairs(threads) do failed = failed + thread:get("errors") end
  io.write(string.format("OFFICESIM requests=%d failed=%d non2xx=%d p50_us=%d p95_us=%d\n",
    summary.requests, failed, summary.errors.status, latency:percentile(50), latency:percentile(95)))
end
