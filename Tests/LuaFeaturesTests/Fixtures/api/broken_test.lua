local test = require "lunar.test"

test("never declared", function()
  -- the closing parenthesis is missing
end
