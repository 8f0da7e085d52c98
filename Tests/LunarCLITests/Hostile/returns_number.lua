-- A script that returns something that is not a feature.
return 42
