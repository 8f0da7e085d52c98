// The declarations live in include/CLunarFuzz.h; SwiftPM needs one source file per C target.
