import ArgumentParser
import Dispatch
import Foundation
import LuaFeatures
import LunarHostSupport

extension Test {
  /// `--watch`: runs the tests, then again whenever a file they read changes, each run under a
  /// line with the time and what changed, until ctrl-C, ctrl-D (end of input) or `q`.
  ///
  /// NB: a run that fails, or a file that does not load, is reported like any run: watching goes
  ///     on, since the next save is usually the fix.
  @MainActor
  func watchTests(reports: [TestReportFile.Request]) async throws {
    lineBufferStandardOutput()
    let interrupts = Self.quitOnInterrupt(json: format.json)
    defer { interrupts.cancel() }
    var reads: [URL: [URL]] = [:]
    let firstRun = Date()
    var pass = await runTests(reports: reports)
    var files = Self.watched(after: pass, known: &reads)
    // NB: nothing to watch: the paths hold no test file, said already.
    guard !files.isEmpty else { throw ExitCode(1) }
    let watcher = FileWatcher(files: files)
    defer { watcher.stop() }
    // NB: the watcher can only start once the first run has said which files the tests read: a
    //     file saved during that run is found by its date, and runs the tests again at once.
    let savedDuringFirstRun = files.filter { Self.modified($0, after: firstRun) }
    let events = TestWatchEvent.stream(changes: watcher.changes, first: savedDuringFirstRun)
    showWatching(files)
    for await event in events {
      switch event {
      case let .changed(changed):
        showRunStart(because: changed.map(TestFiles.display).joined(separator: ", ") + " changed")
      case .again:
        showRunStart(because: "run again")
      case let .unknownInput(line):
        printError("\"\(line)\" is not a watch command: Enter runs the tests again, q quits")
        continue
      case .quit:
        return
      }
      pass = await runTests(reports: reports)
      // NB: a run that found no test file (its folder moved away) keeps watching what it had.
      let next = Self.watched(after: pass, known: &reads)
      if !next.isEmpty { files = next }
      watcher.watch(files)
      showWatching(files)
    }
  }

  /// Makes ctrl-C (SIGINT) end the process with exit status 0, at once, even in the middle of a
  /// run: the returned source must be kept until the end.
  ///
  /// NB: handled on a queue of its own, since the main actor may be busy in a test until its
  ///     time limit; `_exit`, since the main thread may be inside Lua then (nothing is left to
  ///     clean up: reports are written whole or not at all).
  static func quitOnInterrupt(json: Bool) -> any DispatchSourceSignal {
    signal(SIGINT, SIG_IGN)
    let interrupts = DispatchSource.makeSignalSource(signal: SIGINT, queue: DispatchQueue(label: "lunar.test.interrupt"))
    interrupts.setEventHandler {
      if !json { print("") }
      flushStandardOutput()
      _exit(0)
    }
    interrupts.resume()
    return interrupts
  }

  /// The files to watch after `pass`: what each test file read, and for a file that did not load,
  /// what it read before and the Lua files of its folder (its broken part may be a module it
  /// never read before, and `require` only reaches inside that folder).
  static func watched(after pass: TestPass, known reads: inout [URL: [URL]]) -> [URL] {
    var files: [URL] = []
    for (testFile, read) in pass.reads.sorted(by: { $0.key.path < $1.key.path }) {
      if read.isEmpty {
        files += [testFile] + (reads[testFile] ?? []) + luaFiles(under: testFile.deletingLastPathComponent())
      } else {
        reads[testFile] = read
        files += read
      }
    }
    var seen = Set<String>()
    return files.map(\.standardizedFileURL).filter { seen.insert($0.path).inserted }
  }

  private static func modified(_ file: URL, after date: Date) -> Bool {
    let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
    guard let modified = attributes?[.modificationDate] as? Date else { return false }
    return modified > date
  }

  private static func luaFiles(under folder: URL) -> [URL] {
    let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil, options: .skipsHiddenFiles)
    var files: [URL] = []
    while let next = enumerator?.nextObject() as? URL, files.count < 1000 {
      if next.pathExtension == "lua" { files.append(next.resolvingSymlinksInPath()) }
    }
    return files.sorted { $0.path < $1.path }
  }

  /// The line that separates a run from the previous one: the time, and why it runs.
  @MainActor
  private func showRunStart(because reason: String) {
    if format.json {
      print(HostEvent.note("\(reason): running the tests again").encoded().line)
      return
    }
    let formatter = DateFormatter()
    formatter.dateFormat = "HH:mm:ss"
    let terminal = Terminal.standardOutput
    print("")
    print(terminal.bold("── \(formatter.string(from: Date())) · \(reason) ──"))
  }

  /// Says that the files are watched (a file saved from now on runs the tests again).
  @MainActor
  private func showWatching(_ files: [URL]) {
    let count = files.count == 1 ? "1 file" : "\(files.count) files"
    if format.json {
      print(HostEvent.note("watching \(count) for changes").encoded().line)
    } else {
      print(Terminal.standardOutput.dim("Watching \(count) for changes: Enter runs the tests again, ctrl-C or ctrl-D quits."))
    }
  }
}

/// What the watch loop reacts to.
enum TestWatchEvent: Sendable {
  /// Watched files whose text changed.
  case changed([URL])
  /// An empty line: run the tests again now.
  case again
  /// A line that means nothing here.
  case unknownInput(String)
  /// ctrl-D (the end of input) or `q`.
  case quit

  /// The changes and the lines typed, as one sequence, after `first` (files known to have changed
  /// already), if any.
  ///
  /// NB: standard input is read only when it is not a terminal this process is in the background
  ///     of (`lunar test --watch &`), where reading would stop the process.
  @MainActor
  static func stream(changes: AsyncStream<FileWatcher.Change>, first: [URL] = []) -> AsyncStream<TestWatchEvent> {
    let (stream, continuation) = AsyncStream<TestWatchEvent>.makeStream(bufferingPolicy: .unbounded)
    if !first.isEmpty { continuation.yield(.changed(first)) }
    Task {
      for await change in changes { continuation.yield(.changed(change.files)) }
    }
    let inBackground = StandardInput.isTerminal && tcgetpgrp(STDIN_FILENO) != getpgrp()
    if !inBackground {
      Task {
        for await line in StandardInput.lines() {
          guard case let .text(text) = line else { continue }
          switch text.trimmingCharacters(in: .whitespaces) {
          case "": continuation.yield(.again)
          case "q", "quit", ":q", ":quit": continuation.yield(.quit)
          case let other: continuation.yield(.unknownInput(other))
          }
        }
        continuation.yield(.quit)
      }
    }
    return stream
  }
}
