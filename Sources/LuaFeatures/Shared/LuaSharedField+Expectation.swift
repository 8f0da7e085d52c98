import LuaBridge

extension [LuaSharedField] {
  /// A test's expected state with every place of a shared key in step with the places the test
  /// changed, as TCA's `$syncUp.withLock { … }` changes every holder of a reference at once.
  ///
  /// `expected` is what the test's function made of `before` (the state before the action). A
  /// place whose value the function changed is a write: a whole value replaces the key's value, an
  /// element reference replaces the element with its `id`. Every other place of the key then takes
  /// the new value, as the host does after an action; a place the function added (a child it
  /// presented) takes the current value. A test that writes each place itself gets the same result.
  func syncingExpectation(_ expected: LuaValue, before: LuaValue) -> LuaValue {
    guard !isEmpty else { return expected }
    var values: [String: LuaValue] = [:]
    var elements: [String: [LuaValue: LuaValue]] = [:]
    // NB: whole values first: an element written in the same expectation lands in the new value.
    for site in self where !site.element {
      for location in site.locations(in: before) where values[site.key] == nil {
        values[site.key] = before.value(at: location)
      }
    }
    var written: Set<String> = []
    for site in self where !site.element {
      for location in site.locations(in: expected) {
        guard let old = before.value(at: location), let now = expected.value(at: location), old != now else { continue }
        values[site.key] = now
        written.insert(site.key)
      }
    }
    for site in self where site.element {
      for location in site.locations(in: expected) {
        guard let old = before.value(at: location), let now = expected.value(at: location), old != now else { continue }
        elements[site.key, default: [:]][now[LuaString("id")].normalizedKey] = now
        if let collection = values[site.key], let replaced = LuaSharedField.replacingElement(of: collection, with: now) {
          values[site.key] = replaced
          written.insert(site.key)
        }
      }
    }
    var result = expected
    for site in self {
      for location in site.locations(in: result) {
        guard let place = result.value(at: location) else { continue }
        let isNew = before.value(at: location) == nil
        let value: LuaValue?
        if !isNew, !written.contains(site.key), elements[site.key] == nil {
          value = nil
        } else if site.element {
          let id = place[LuaString("id")].normalizedKey
          value = values[site.key].flatMap { site.current(at: location, in: result, shared: $0) }
            ?? elements[site.key]?[id]
        } else {
          value = values[site.key]
        }
        guard let value, value != place else { continue }
        result.apply(.setField(path: [LuaValue](location.dropLast()), key: site.field, value: value), reread: nil)
      }
    }
    return result
  }
}
