local test = require "lunar.test"

test("a test that raises", function()
  error("kaboom")
end)
