import Foundation
import LuaBridge
import LuaFeatures
import Testing

/// Destinations (`lunar.destination`), alerts and dialogs as data (`lunar.alert`,
/// `lunar.confirmationDialog`), bindings (`lunar.binding`) and a stack's own actions (`push`,
/// `popFrom`), as `lunar.test` drives them: `Fixtures/destinations/destinations_test.lua` on
/// `meeting.lua`, which presents `form.lua`.
@MainActor
struct DestinationTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/destinations")

  func result(_ name: String) async throws -> LuaTestResult {
    let results = await LuaTestRunner().run(file: Self.folder.appendingPathComponent("destinations_test.lua"), filter: name)
    return try #require(results.first { $0.name == name })
  }

  @Test(arguments: [
    "a destination case runs its feature",
    "a case's effect comes back wrapped in its case",
    "changing the destination cancels the previous case's effects",
    "a case of another id is another presentation",
    "clearing the destination cancels its effects",
    "a case dismisses itself, after the parent saw it",
    "an alert is data, compared with ==",
    "an alert's button reaches the parent, then the alert goes",
    "an alert the parent replaced in answer to its button stays",
    "an alert of its own field goes after its button",
    "a confirmation dialog is a destination case too",
    "a binding sets the field before the parent sees it",
    "a case's binding is wrapped like its other actions",
    "push and popFrom are actions of the stack",
    "the view renders an alert",
  ])
  func passes(_ name: String) async throws {
    #expect(try await result(name).failures == [])
  }

  @Test(arguments: [
    ("an action for a case that is not presented",
     #"an action for the "alert" case of lunar.destination("destination") arrived while state.destination is the "edit" case (sent after the parent changed it?)"#),
    ("an action for an unknown case",
     #""edti" is not a case of lunar.destination("destination") (cases: alert, edit, options; or "dismiss") (did you mean "edit"?)"#),
    ("an action no button of the alert sends",
     #"no button of the alert at state.destination.state sends "confirmDelete" (its buttons send "confirmDeletion", "askAgain")"#),
    ("a push with an id that is not the next",
     #"push: the id 5 is not the next id of state.path, 0 (stack ids are given in order and never reused; leave `id` out to get the next)"#),
    ("a popFrom of an id not on the stack",
     #"popFrom: no entry with id 3 in state.path (it was popped already, or the action names the wrong id)"#),
  ])
  func anActionTheCompositionRefusesIsAnErrorAndChangesNothing(_ name: String, _ message: String) async throws {
    let failures = try await result(name).failures
    #expect(failures.count == 1, "\(failures)")
    #expect(failures.first?.message.contains("meeting.lua:26: " + message) == true, "\(failures)")
    #expect(failures.first?.message.contains("state left unchanged") == true, "\(failures)")
  }

  @Test(arguments: [
    ("a binding of an undeclared path",
     #"store:send: Meeting has no binding for "titel" (did you mean "title"?); it binds note, settings.duration, title"#,
     "destinations_test.lua:244"),
    ("a binding of the wrong type",
     #"store:send: Meeting's binding "settings.duration" takes an integer, got "long""#, "destinations_test.lua:249"),
    ("a button without a label", #"lunar.alert: buttons[1] needs a `label` string, got nil"#, "destinations_test.lua:263"),
    ("a button of an unknown role",
     #"lunar.alert: buttons[1]: unknown role "destroy"; roles are "cancel" and "destructive" (or none)"#,
     "destinations_test.lua:267"),
  ])
  func aMistakeFailsAtItsLine(_ name: String, _ message: String, _ location: String) async throws {
    let failures = try await result(name).failures
    #expect(failures.count == 1, "\(failures)")
    #expect(failures.first?.message.hasSuffix(message) == true, "\(failures)")
    #expect(failures.first?.location == location, "\(failures)")
  }
}
