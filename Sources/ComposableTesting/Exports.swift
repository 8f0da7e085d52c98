// A test target imports ComposableTesting alone: the core (and what it re-exports) comes with it.
@_exported import Composable
