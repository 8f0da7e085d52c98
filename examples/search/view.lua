-- The search screen as text: the field, a status line, and the results in order.
local SHOWN = 10 -- results listed before "… and N more"

return function(state)
  local lines = { "  search: " .. state.query .. "▏" }
  if state.loading then
    lines[#lines + 1] = "  searching…"
  elseif state.error then
    lines[#lines + 1] = "  ⚠ " .. state.error
  end
  for i, word in ipairs(state.results) do
    if i > SHOWN then
      lines[#lines + 1] = "     … and " .. (#state.results - SHOWN) .. " more"
      break
    end
    local marker = word == state.selected and "▸" or " "
    lines[#lines + 1] = string.format("  %s %2d. %s", marker, i, word)
  end
  if state.selected then
    lines[#lines + 1] = "  selected: " .. state.selected
  end
  return table.concat(lines, "\n")
end
