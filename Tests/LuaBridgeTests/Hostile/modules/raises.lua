-- Raises while it loads.
local reason = "this module fails while it loads"
error(reason)
