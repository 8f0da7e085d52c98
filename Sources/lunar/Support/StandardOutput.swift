// NB: `stdout` is a C global `var`; Swift 6 only lets it be read through a `@preconcurrency` import.
#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  @preconcurrency import Darwin
#endif

/// Flushes standard output, and only it.
///
/// > Important: Never `fflush(nil)` here: it also locks standard input, which the thread reading
/// > lines holds while it waits for the next one, so output would wait for the next input line.
func flushStandardOutput() {
  fflush(stdout)
}

/// Makes standard output write each line as it ends, whatever it is connected to (a pipe too).
func lineBufferStandardOutput() {
  setvbuf(stdout, nil, _IOLBF, 0)
}
