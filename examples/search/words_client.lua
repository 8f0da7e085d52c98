-- wordsClient: the bundled word list, words.txt (one word a line), searched.
local lunar = require "lunar"

return lunar.client "wordsClient" {
  -- The words containing `query`, ignoring case, in the file's order; none for an empty query.
  search = function(deps, query)
    local needle = string.lower(query)
    if needle == "" then return {} end
    local found = {}
    for word in string.gmatch(deps.files.read("words.txt"), "[^\r\n]+") do
      if string.find(string.lower(word), needle, 1, true) then
        found[#found + 1] = word
      end
    end
    return found
  end,
}
