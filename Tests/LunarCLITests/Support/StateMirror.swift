import Foundation

/// Keeps the state of a `lunar run` (or each plugin's, in `lunar host`) up to date from its events,
/// as a client does: the `ready` event's state, then each `state` event's `patch` applied in order.
/// The tests read `event.state` as if every event carried the whole state, and check on the way
/// that the patches really describe the states.
struct StateMirror {
  private var states: [String: Any] = [:]

  /// `event`, with `state` filled in when it carries a patch.
  mutating func follow(_ event: Event) -> Event {
    let key = event.string("plugin") ?? ""
    if let state = event.object["state"] {
      states[key] = state
      return event
    }
    guard event.name == "state", let patch = event.object["patch"] as? [[String: Any]], var state = states[key] else {
      return event
    }
    for entry in patch {
      let path = entry["path"] as? [Any] ?? []
      state = Self.applying(entry["op"] as? String == "remove" ? nil : entry["value"], at: path[...], to: state)
    }
    states[key] = state
    var followed = event
    followed.object["state"] = state
    return followed
  }

  /// `root` with `value` at `path` (`nil`: the key removed).
  static func applying(_ value: Any?, at path: ArraySlice<Any>, to root: Any) -> Any {
    guard let key = path.first else { return value ?? NSNull() }
    let rest = path.dropFirst()
    if let name = key as? String {
      var fields = root as? [String: Any] ?? [:]
      if rest.isEmpty {
        fields[name] = value
      } else {
        fields[name] = applying(value, at: rest, to: fields[name] ?? [String: Any]())
      }
      return fields
    }
    let position = (key as? NSNumber)?.intValue ?? 0
    var elements = root as? [Any] ?? []
    let index = position - 1
    if rest.isEmpty {
      if let value {
        if index == elements.count { elements.append(value) } else if elements.indices.contains(index) { elements[index] = value }
      } else if elements.indices.contains(index) {
        elements.remove(at: index)
      }
    } else if elements.indices.contains(index) {
      elements[index] = applying(value, at: rest, to: elements[index])
    }
    return elements
  }
}
