-- The rows a filter shows: "all", "active" (not done) or "done".
return function(todos, filter)
  local shown = {}
  for _, todo in ipairs(todos) do
    if filter == "all" or (filter == "done") == todo.done then shown[#shown + 1] = todo end
  end
  return shown
end
