-- The list as text: a header with the filter, the rows it shows, and the sheet.
local visible = require "visible"

return function(state)
  local left = 0
  for _, todo in ipairs(state.todos) do
    if not todo.done then left = left + 1 end
  end
  local lines = { string.format("  todos · %d left · showing %s", left, state.filter) }
  for _, todo in ipairs(visible(state.todos, state.filter)) do
    lines[#lines + 1] = string.format("  [%s] %d. %s", todo.done and "x" or " ", todo.id, todo.title)
  end
  if state.editing then
    lines[#lines + 1] = string.format("  ✎ editing %d: %s▏", state.editing.id, state.editing.title)
  end
  return table.concat(lines, "\n")
end
