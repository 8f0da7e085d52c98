import CasePathsCore
import Composable
import ComposableTesting
import Dependencies
import Foundation
import IdentifiedCollections
import Testing

/// Case studies of TCA's examples, ported: alerts and confirmation dialogs, and a recursive list.
@MainActor
struct TCAExampleTests {
  @Test func anAlertsButtonIsHandledAndTheAlertReplacedByAnother() async {
    let store = TestStore(initialState: AlertAndDialog.State()) { AlertAndDialog() }
    await store.send(.alertButtonTapped) {
      $0.alert = AlertState {
        TextState("Alert!")
      } actions: {
        ButtonState(role: .cancel) { TextState("Cancel") }
        ButtonState(action: .incrementButtonTapped) { TextState("Increment") }
      } message: {
        TextState("This is an alert")
      }
    }
    await store.send(\.alert.incrementButtonTapped) {
      $0.alert = AlertState { TextState("Incremented!") }
      $0.count = 1
    }
    await store.send(\.alert.dismiss) { $0.alert = nil }
  }

  @Test func aDialogsButtonDismissesTheDialog() async {
    let store = TestStore(initialState: AlertAndDialog.State()) { AlertAndDialog() }
    await store.send(.confirmationDialogButtonTapped) {
      $0.confirmationDialog = ConfirmationDialogState {
        TextState("Confirmation dialog")
      } actions: {
        ButtonState(role: .cancel) { TextState("Cancel") }
        ButtonState(action: .incrementButtonTapped) { TextState("Increment") }
        ButtonState(action: .decrementButtonTapped) { TextState("Decrement") }
      } message: {
        TextState("This is a confirmation dialog.")
      }
    }
    await store.send(\.confirmationDialog.incrementButtonTapped) {
      $0.alert = AlertState { TextState("Incremented!") }
      $0.confirmationDialog = nil
      $0.count = 1
    }
  }

  @Test func aRecursiveListAddsRowsAtAnyDepth() async {
    let store = TestStore(initialState: NestedList.State(id: UUID())) { NestedList() } withDependencies: {
      $0.uuid = .incrementing
    }
    await store.send(.addRowButtonTapped) { $0.rows.append(NestedList.State(id: UUID(0))) }
    await store.send(\.rows[id: UUID(0)].addRowButtonTapped) {
      $0.rows[id: UUID(0)]?.rows.append(NestedList.State(id: UUID(1)))
    }
  }

  @Test func aRecursiveListDeletesRows() async {
    let store = TestStore(
      initialState: NestedList.State(
        id: UUID(),
        rows: [NestedList.State(id: UUID(0)), NestedList.State(id: UUID(1)), NestedList.State(id: UUID(2))]
      )
    ) { NestedList() }
    await store.send(.onDelete([1])) { $0.rows.remove(id: UUID(1)) }
  }
}

private struct AlertAndDialog: Reducer {
  struct State: Equatable {
    @PresentationState var alert: AlertState<Action.Alert>?
    @PresentationState var confirmationDialog: ConfirmationDialogState<Action.ConfirmationDialog>?
    var count = 0
  }
  enum Action: Sendable, CasePathable {
    case alert(PresentationAction<Alert>)
    case alertButtonTapped
    case confirmationDialog(PresentationAction<ConfirmationDialog>)
    case confirmationDialogButtonTapped

    enum Alert: Sendable, CasePathable {
      case incrementButtonTapped
      struct AllCasePaths { var incrementButtonTapped: AnyCasePath<Alert, Void> { casePath(Alert.incrementButtonTapped) } }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }
    enum ConfirmationDialog: Sendable, CasePathable {
      case incrementButtonTapped
      case decrementButtonTapped
      struct AllCasePaths {
        var incrementButtonTapped: AnyCasePath<ConfirmationDialog, Void> {
          casePath(ConfirmationDialog.incrementButtonTapped)
        }
      }
      static var allCasePaths: AllCasePaths { AllCasePaths() }
    }
    struct AllCasePaths {
      var alert: AnyCasePath<Action, PresentationAction<Alert>> { casePath(Action.alert) }
      var confirmationDialog: AnyCasePath<Action, PresentationAction<ConfirmationDialog>> {
        casePath(Action.confirmationDialog)
      }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.incrementButtonTapped)), .confirmationDialog(.presented(.incrementButtonTapped)):
        state.alert = AlertState { TextState("Incremented!") }
        state.count += 1
      case .alert:
        break
      case .alertButtonTapped:
        state.alert = AlertState {
          TextState("Alert!")
        } actions: {
          ButtonState(role: .cancel) { TextState("Cancel") }
          ButtonState(action: .incrementButtonTapped) { TextState("Increment") }
        } message: {
          TextState("This is an alert")
        }
      case .confirmationDialog(.presented(.decrementButtonTapped)):
        state.alert = AlertState { TextState("Decremented!") }
        state.count -= 1
      case .confirmationDialog:
        break
      case .confirmationDialogButtonTapped:
        state.confirmationDialog = ConfirmationDialogState {
          TextState("Confirmation dialog")
        } actions: {
          ButtonState(role: .cancel) { TextState("Cancel") }
          ButtonState(action: .incrementButtonTapped) { TextState("Increment") }
          ButtonState(action: .decrementButtonTapped) { TextState("Decrement") }
        } message: {
          TextState("This is a confirmation dialog.")
        }
      }
      return .none
    }
    .ifLet(\.$alert, action: \.alert)
    .ifLet(\.$confirmationDialog, action: \.confirmationDialog)
  }
}

/// A list whose rows are lists, to any depth.
private struct NestedList: Reducer {
  struct State: Equatable, Identifiable {
    let id: UUID
    var name = ""
    var rows: IdentifiedArrayOf<State> = []

    init(id: UUID? = nil, name: String = "", rows: IdentifiedArrayOf<State> = []) {
      @Dependency(\.uuid) var uuid
      self.id = id ?? uuid()
      self.name = name
      self.rows = rows
    }
  }
  indirect enum Action: Sendable, CasePathable {
    case addRowButtonTapped
    case nameTextFieldChanged(String)
    case onDelete(Set<Int>)
    case rows(IdentifiedActionOf<NestedList>)
    struct AllCasePaths {
      var addRowButtonTapped: AnyCasePath<Action, Void> { casePath(Action.addRowButtonTapped) }
      var rows: AnyCasePath<Action, IdentifiedActionOf<NestedList>> { casePath(Action.rows) }
    }
    static var allCasePaths: AllCasePaths { AllCasePaths() }
  }
  @Dependency(\.uuid) var uuid

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addRowButtonTapped:
        state.rows.append(State(id: uuid()))
      case let .nameTextFieldChanged(name):
        state.name = name
      case let .onDelete(offsets):
        for offset in offsets.sorted(by: >) { state.rows.remove(at: offset) }
      case .rows:
        break
      }
      return .none
    }
    .forEach(\.rows, action: \.rows) { NestedList() }
  }
}
