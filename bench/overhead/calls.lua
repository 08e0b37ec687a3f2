-- ActiveTime bench/overhead: call-heavy Lua workload. Recursive Lua calls,
-- method calls through metatables, C->Lua callbacks (table.sort comparator,
-- string.gsub), closures. Deterministic output. Usage: lua calls.lua [scale]
local scale = tonumber(arg and arg[1]) or 1

local function fib(n)
  if n < 2 then return n end
  return fib(n - 1) + fib(n - 2)
end

local Point = {}
Point.__index = Point
function Point.new(x, y) return setmetatable({x = x, y = y}, Point) end
function Point:add(o) return Point.new(self.x + o.x, self.y + o.y) end
function Point:dot(o) return self.x * o.x + self.y * o.y end

local seed = 42
local function rnd(m)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % m
end

local out = {}
out[#out + 1] = fib(24 + scale)
local acc, d = Point.new(0, 0), 0
for i = 1, 100000 * scale do
  local p = Point.new(i % 13, i % 17)
  acc = acc:add(p)
  d = d + acc:dot(p) % 1000
end
out[#out + 1] = d
local t = {}
for i = 1, 30000 * scale do t[i] = rnd(1000000) end
table.sort(t, function(a, b) return a < b end)
out[#out + 1] = t[1] + t[#t]
local s = string.rep("abc123 ", 20000 * scale)
local n = 0
s = s:gsub("%w+", function(w) n = n + #w; return w:upper() end)
out[#out + 1] = n
print(table.concat(out, " "))
