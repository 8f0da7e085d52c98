-- A module whose top level never ends: the limit names the module's own line, not require's.
require "modules.spin"
