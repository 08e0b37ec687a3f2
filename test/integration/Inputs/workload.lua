-- ActiveTime integration workload for Lua: deterministic output, exercising
-- the interpreter's call paths (Lua->Lua calls, C->Lua callbacks from
-- table.sort and string.gsub, coroutines, metamethods, error/pcall unwinding
-- through longjmp, the garbage collector). Usage: lua workload.lua [scale]

local scale = tonumber(arg and arg[1]) or 1

local function fib(n)
  if n < 2 then return n end
  return fib(n - 1) + fib(n - 2)
end

-- Deterministic pseudo-random numbers (LCG), independent of math.random.
local seed = 12345
local function rnd(m)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % m
end

local function sorting(n)
  local t = {}
  for i = 1, n do t[i] = rnd(100000) end
  table.sort(t, function(a, b) return a > b end)
  local s = 0
  for i = 1, n, 97 do s = s + t[i] * i end
  return s
end

local function strings(n)
  local parts = {}
  for i = 1, n do parts[#parts + 1] = string.format("%d:%x;", i, i * 7) end
  local s = table.concat(parts)
  local count = 0
  s = s:gsub("(%d+):(%x+)", function(a, b)
    count = count + 1
    return b .. "=" .. a
  end)
  return #s, count
end

local function coroutines(n)
  local gen = coroutine.wrap(function()
    for i = 1, n do coroutine.yield(i * i) end
  end)
  local s = 0
  for _ = 1, n do s = s + gen() end
  return s
end

local Vec = {}
Vec.__index = Vec
Vec.__add = function(a, b) return setmetatable({x = a.x + b.x, y = a.y + b.y}, Vec) end
function Vec.new(x, y) return setmetatable({x = x, y = y}, Vec) end
function Vec:len2() return self.x * self.x + self.y * self.y end

local function metamethods(n)
  local acc = Vec.new(0, 0)
  for i = 1, n do acc = acc + Vec.new(i % 7, i % 11) end
  return acc:len2()
end

local function deep(n)
  if n == 0 then error({code = 42}) end
  return deep(n - 1) + 1
end

local function errors(n)
  local caught = 0
  for i = 1, n do
    local ok, e = pcall(deep, i % 50)
    if not ok and e.code == 42 then caught = caught + 1 end
  end
  return caught
end

print("fib", fib(20 + scale))
print("sort", sorting(20000 * scale))
print("strings", strings(20000 * scale))
print("coroutines", coroutines(20000 * scale))
print("metamethods", metamethods(50000 * scale))
print("errors", errors(2000 * scale))
collectgarbage()
print("done")
