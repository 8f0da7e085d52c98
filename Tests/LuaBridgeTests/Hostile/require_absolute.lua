local module = require("/etc/passwd")
return module
