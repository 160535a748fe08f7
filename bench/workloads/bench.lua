-- The lua workload: tables, strings, closures, recursion, sorting and
-- floating point, scaled by the first argument.  Prints checksums only.
local scale = tonumber(arg[1]) or 1
local n = math.floor(20000 * scale)

-- Hash tables and integer arithmetic.
local t, sum = {}, 0
for i = 1, n * 4 do t[(i * 7919) % (n * 3) + 1] = i end
for k, v in pairs(t) do sum = (sum + k * 31 + v) % 1000000007 end
print("table", sum)

-- Strings: building, formatting, patterns.
local parts = {}
for i = 1, n do parts[#parts + 1] = string.format("%d:%x;", i, i * 2654435761 % 4294967296) end
local s = table.concat(parts)
local count = 0
for a, b in s:gmatch("(%d+):(%x+);") do
  if #b % 2 == 0 then count = count + #a end
end
local replaced = s:sub(1, 200000):gsub("[13579]", "o")
print("string", #s, count, #replaced)

-- Closures and recursion.
local function fib(k) if k < 2 then return k end return fib(k - 1) + fib(k - 2) end
local fibs = 0
for i = 1, math.floor(12 * scale) do fibs = fibs + fib(22) end
local function counter() local c = 0; return function(d) c = c + d; return c end end
local adders, total = {}, 0
for i = 1, n do adders[i % 100 + 1] = adders[i % 100 + 1] or counter(); total = total + adders[i % 100 + 1](i) % 997 end
print("calls", fibs, total)

-- Sorting with a comparison function.
local records = {}
for i = 1, n do records[i] = { key = (i * 48271) % 2147483647 % 100000, name = tostring(i) } end
table.sort(records, function(x, y) if x.key ~= y.key then return x.key < y.key end return x.name < y.name end)
print("sort", records[1].key, records[#records].key, records[n // 2].name)

-- Floating point: a small n-body simulation.
local bodies = {}
for i = 1, 5 do bodies[i] = { x = i, y = i * 0.5, z = -i, vx = 0.01 * i, vy = 0, vz = -0.02 * i, m = 1 / i } end
for step = 1, math.floor(8000 * scale) do
  for i = 1, #bodies do
    local bi = bodies[i]
    for j = i + 1, #bodies do
      local bj = bodies[j]
      local dx, dy, dz = bi.x - bj.x, bi.y - bj.y, bi.z - bj.z
      local d2 = dx * dx + dy * dy + dz * dz + 0.01
      local mag = 0.001 / (d2 * math.sqrt(d2))
      bi.vx, bi.vy, bi.vz = bi.vx - dx * bj.m * mag, bi.vy - dy * bj.m * mag, bi.vz - dz * bj.m * mag
      bj.vx, bj.vy, bj.vz = bj.vx + dx * bi.m * mag, bj.vy + dy * bi.m * mag, bj.vz + dz * bi.m * mag
    end
  end
  for _, b in ipairs(bodies) do b.x, b.y, b.z = b.x + 0.01 * b.vx, b.y + 0.01 * b.vy, b.z + 0.01 * b.vz end
end
print("nbody", string.format("%.6f %.6f", bodies[1].x, bodies[5].z))
