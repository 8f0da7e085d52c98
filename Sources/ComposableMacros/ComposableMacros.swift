// The core, and — with the package's `Macros` trait — the macros a TCA user reaches for:
//
// - `@CasePathable` (swift-case-paths) on action and destination enums, instead of writing
//   `AllCasePaths` by hand;
// - `@DependencyClient` (swift-dependencies) on dependency clients, which gives every endpoint an
//   unimplemented default that fails the test that calls it.
//
// Opt in from a package that depends on Lunar:
//
//     .package(url: "…/lunar", from: "…", traits: ["Macros"]),
//     …
//     .product(name: "ComposableMacros", package: "lunar")
//
// and `import ComposableMacros` instead of `import Composable` and `import Dependencies`. Without
// the trait this module is those two alone, and nothing builds swift-syntax.

@_exported import Composable
@_exported import Dependencies

#if Macros
  @_exported import CasePaths
  @_exported import DependenciesMacros
#endif
