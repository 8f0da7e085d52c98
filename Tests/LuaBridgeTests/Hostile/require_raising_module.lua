-- A module that raises while it loads: its error comes through require unchanged.
require "modules.raises"
