local module = require("../x")
return module
