import LuaBridge
import Testing

/// How values are written for a Lua author (LuaNotation): on one line, over several lines when
/// long, within limits, and their differences.
@Suite struct LuaNotationTests {
  let todos: LuaValue = ["count": 0, "todos": [["id": 1, "title": "milk"]]]

  @Test func aShortTableIsOneLineWithSpacesInsideItsBraces() {
    #expect(LuaNotation.block.text(todos) == #"{ count = 0, todos = { { id = 1, title = "milk" } } }"#)
    #expect(LuaNotation.line.text(todos) == #"{ count = 0, todos = { { id = 1, title = "milk" } } }"#)
  }

  @Test func anEmptyTableIsTwoBracesWhateverItsKind() {
    #expect(LuaNotation.block.text(.array([])) == "{}")
    #expect(LuaNotation.block.text(.table([:])) == "{}")
    #expect(LuaNotation.line.text(["laps": .array([]), "names": .table([:])]) == "{ laps = {}, names = {} }")
  }

  @Test func arraysKeepTheirOrderAndKeysAreSortedWithTypeFirst() {
    #expect(LuaNotation.line.text([3, 1, 2]) == "{ 3, 1, 2 }")
    #expect(LuaNotation.line.text(["zeta": 1, "alpha": 2, "type": "add", "Beta": 3]) == #"{ type = "add", Beta = 3, alpha = 2, zeta = 1 }"#)
  }

  @Test func aKeyThatIsNotALuaNameIsBracketed() {
    #expect(LuaNotation.line.text(["odd key": 1, "end": 2, "2x": 3, "ok_1": 4]) == #"{ ["2x"] = 3, ["end"] = 2, ["odd key"] = 1, ok_1 = 4 }"#)
  }

  @Test func stringsAreLuaLiterals() {
    #expect(LuaNotation.line.text(["s": "say \"hi\"\n\\ \t"]) == #"{ s = "say \"hi\"\n\\ \t" }"#)
    #expect(LuaNotation.line.text(.string(LuaString(bytes: [0x61, 0x00, 0xFF]))) == #""a\x00\xFF""#)
    #expect(LuaNotation.line.text(["n": 3, "f": 3.0, "big": .integer(.min)]) == "{ big = math.mininteger, f = 3.0, n = 3 }")
  }

  @Test func aLongTableTakesALinePerEntryIndentedAndEachFollowedByAComma() {
    let notation = LuaNotation(width: 30)
    let state: LuaValue = ["title": "a list of things to buy", "todos": [["id": 1, "title": "milk"], ["id": 2, "title": "eggs"]], "done": false]
    #expect(notation.text(state) == """
      {
        done = false,
        title = "a list of things to buy",
        todos = {
          { id = 1, title = "milk" },
          { id = 2, title = "eggs" },
        },
      }
      """)
  }

  @Test func anIndentStartsTheLinesAfterTheFirst() {
    #expect(LuaNotation(width: 10).text(["a": 1, "b": 2], indent: "    ") == "{\n      a = 1,\n      b = 2,\n    }")
  }

  @Test func tablesDeeperThanTheDepthShowAsAnEllipsis() {
    #expect(LuaNotation(depth: 1).text(todos) == "{ count = 0, todos = {…} }")
    #expect(LuaNotation(depth: 2).text(todos) == "{ count = 0, todos = { {…} } }")
    #expect(LuaNotation(depth: 0).text(todos) == "{…}")
    #expect(LuaNotation(depth: 1).text(["empty": [:]]) == "{ empty = {} }")
    #expect(LuaNotation(depth: 1, width: 5).text(todos) == "{\n  count = 0,\n  todos = {…},\n}")
  }

  @Test func aTextLongerThanTheLengthIsCutWithAnEllipsis() {
    #expect(LuaNotation(length: 12).text(todos) == "{ count = 0…")
    #expect(LuaNotation(length: 100).text(todos) == LuaNotation.line.text(todos))
  }

  @Test func descriptionIsTheOneLineNotation() {
    #expect(todos.description == LuaNotation.line.text(todos))
  }

  @Test func aDiffOpensTheTablesHoldingAChangeAndMarksChangedEntries() {
    let before: LuaValue = ["count": 0, "loading": false, "tags": ["a"]]
    let after: LuaValue = ["count": 1, "loading": false, "tags": ["a"]]
    #expect(LuaNotation.block.diff(before, after) == """
        {
      -   count = 0,
      +   count = 1,
          loading = false,
          tags = { "a" },
        }
      """)
  }

  @Test func equalValuesHaveNoDiff() {
    #expect(LuaNotation.block.diff(todos, todos) == nil)
  }

  @Test func aDiffShowsAddedAndRemovedFieldsWhole() {
    #expect(LuaNotation.block.diff(["a": 1, "gone": ["x": 1]], ["a": 1, "new": "n"]) == """
        {
          a = 1,
      -   gone = { x = 1 },
      +   new = "n",
        }
      """)
  }

  @Test func aDiffOfArraysMatchesElementsAndOpensAChangedTable() {
    let before: LuaValue = ["todos": [["id": 1, "done": false], ["id": 2, "done": false]]]
    let after: LuaValue = ["todos": [["id": 1, "done": false], ["id": 2, "done": true], ["id": 3, "done": false]]]
    #expect(LuaNotation.block.diff(before, after) == """
        {
          todos = {
            { done = false, id = 1 },
            {
      -       done = false,
      +       done = true,
              id = 2,
            },
      +     { done = false, id = 3 },
          },
        }
      """)
  }

  @Test func aDiffCollapsesMoreThanTwoUnchangedElements() {
    #expect(LuaNotation.block.diff([1, 2, 3, 4, 5], [1, 2, 3, 4, 6]) == """
        {
          … (4 unchanged)
      -   5,
      +   6,
        }
      """)
    #expect(LuaNotation.block.diff([1, 2, 3], [1, 2, 4]) == "  {\n    1,\n    2,\n-   3,\n+   4,\n  }")
  }

  @Test func aDiffFoldsAnUnchangedTableLongerThanALine() {
    let rows: LuaValue = [["id": 1, "title": "milk"], ["id": 2, "title": "eggs"]]
    #expect(LuaNotation(width: 20).diff(["busy": false, "rows": rows], ["busy": true, "rows": rows]) == """
        {
      -   busy = false,
      +   busy = true,
          rows = {…},
        }
      """)
  }

  @Test func aDiffFromAnEmptyTableListsWhatWasAdded() {
    #expect(LuaNotation.block.diff(["laps": .table([:])], ["laps": [0.5]]) == "  {\n    laps = {\n+     0.5,\n    },\n  }")
    #expect(LuaNotation.block.diff(["x": 1], .array([])) == "  {\n-   x = 1,\n  }")
  }

  @Test func aDiffReplacingAValueOfAnotherKindShowsBothWhole() {
    #expect(LuaNotation.block.diff(["detail": ["id": 1]], ["detail": .nil]) == "  {\n-   detail = { id = 1 },\n+   detail = nil,\n  }")
    #expect(LuaNotation.block.diff(1, "1") == "- 1\n+ \"1\"")
  }

  @Test func aDiffOpensChangedTablesDeeperThanTheDepthButNotUnchangedOnes() {
    let before: LuaValue = ["a": ["b": ["c": 1]], "same": ["b": ["c": 1]]]
    let after: LuaValue = ["a": ["b": ["c": 2]], "same": ["b": ["c": 1]]]
    #expect(LuaNotation(depth: 1, width: 96).diff(before, after) == """
        {
          a = {
            b = {
      -       c = 1,
      +       c = 2,
            },
          },
          same = {…},
        }
      """)
  }

  @Test func aDiffForAProportionalFontUsesTheMinusSignAndFigureSpaces() {
    #expect(LuaNotation.block.diff(["n": 1], ["n": 2], markers: .proportional) == "\u{2007} {\n\u{2212}   n = 1,\n+   n = 2,\n\u{2007} }")
  }
}
