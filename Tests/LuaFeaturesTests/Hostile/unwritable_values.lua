-- Values JSON cannot write (NaN, the infinities, text that is not UTF-8, float keys, a table holding
-- both 3 and "3", which JSON writes as one key) would make every
-- event, recording and saved file of the state fail after the write: state refuses them when they
-- are written, and the action is undone.
local lunar = require "lunar"
return lunar.feature {
  name = "Unwritable",
  initial = { count = 0, stats = { ratio = 0.5 }, tags = { ["clé"] = 1 } },
  reduce = function(state, action)
    state.count = state.count + 1
    local t = action.type
    if t == "huge" then
      state.stats.ratio = math.huge -- huge
    elseif t == "minusHuge" then
      state.stats.ratio = -math.huge -- minus huge
    elseif t == "nan" then
      state.ratio = 0 / 0 -- nan
    elseif t == "binaryString" then
      state.title = "ok\255" -- binary string
    elseif t == "surrogate" then
      state.title = "\u{D800}" -- surrogate
    elseif t == "binaryKey" then
      state.tags["\255x"] = true -- binary key
    elseif t == "nestedNaN" then
      state.rows = { { id = 1, score = 0 / 0 } } -- nested nan
    elseif t == "nestedBinaryKey" then
      state.rows = { { id = 1, names = { ["a\200"] = 1 } } } -- nested binary key
    elseif t == "nestedOverlong" then
      state.rows = { { id = 1, name = "\xC0\xAF" } } -- nested overlong
    elseif t == "floatKey" then
      state.tags[1.5] = true -- float key
    elseif t == "nestedFloatKey" then
      state.rows = { [0.5] = "half" } -- nested float key
    elseif t == "twinStringKey" then
      state.list = { "a" }
      state.list["1"] = "b" -- twin string key
    elseif t == "twinIntegerKey" then
      state.tags["-3"] = 0
      state.tags[-3] = 1 -- twin integer key
    elseif t == "nestedTwinKey" then
      state.rows = { { [7] = 1, ["7"] = 2 } } -- nested twin key
    elseif t == "fine" then
      state.stats.ratio = 2.5
      state.title = "héllo ✓"
      state.tags["clé"] = 2
      state.tags[2.0] = "two"
      state.tags["02"] = "not 2's twin"
      state.big = math.maxinteger
      state.small = math.mininteger
    end
  end,
}
