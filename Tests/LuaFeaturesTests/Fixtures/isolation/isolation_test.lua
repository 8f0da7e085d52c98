local test = require "lunar.test"
local Tally = require "tally"

test("counting once", function()
  test.store(Tally):send({ type = "count" })
end)

test("counting once more", function()
  test.store(Tally):send({ type = "count" })
end)

test("rolling", function()
  test.store(Tally):send({ type = "roll" })
end)

test("rolling in a second store", function()
  test.store(Tally):send({ type = "roll" })
  test.store(Tally):send({ type = "roll" })
end)
