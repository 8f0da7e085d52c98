local module = require("os")
return module
