-- Binary chunks can crash a VM: load refuses them.
return assert(load(string.dump(function() return 1 end)))
