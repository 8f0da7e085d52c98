import Dependencies

extension Effect {
  /// An effect running `operation`, named by `origin` in failure messages ("an effect created at
  /// counter.lua:12 is still running"). For hosts that run effects described elsewhere; Swift code
  /// uses ``run(priority:operation:catch:fileID:filePath:line:column:)``.
  ///
  /// `operation` handles its own errors. Dependencies in effect now stay in effect inside it.
  public static func run(
    origin: EffectOrigin,
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async -> Void
  ) -> Self {
    withEscapedDependencies { dependencies in
      Self(
        .run(
          Run(priority: priority, origin: origin) { send in
            await dependencies.yield { await operation(send) }
          }
        )
      )
    }
  }
}
