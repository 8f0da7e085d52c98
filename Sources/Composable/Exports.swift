// What code written against the core reaches for besides it, re-exported as TCA re-exports it, so
// that `import Composable` is enough: `@Dependency` and `DependencyValues` (swift-dependencies),
// case paths and `AllCasePaths` (swift-case-paths, without its macros: see the `Macros` trait),
// `IdentifiedArrayOf` (swift-identified-collections), test clocks (swift-clocks), `LockIsolated`
// and `UncheckedSendable` (swift-concurrency-extras), `customDump` (swift-custom-dump) and
// `reportIssue` (IssueReporting), and `withObservationTracking` (Observation: a store is
// `Observable`).
@_exported import CasePathsCore
@_exported import Clocks
@_exported import ConcurrencyExtras
@_exported import CustomDump
@_exported import Dependencies
@_exported import IdentifiedCollections
@_exported import IssueReporting
@_exported import Observation
