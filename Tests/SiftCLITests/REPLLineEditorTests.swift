import Testing

@testable import SiftCLI

/// Drives `LineEditorState` and `KeyDecoder` without a terminal.
@Suite("REPL line editor")
struct REPLLineEditorTests {
  /// Types `text` then applies `keys`; returns the final text and cursor.
  static func edit(_ text: String, _ keys: [EditorKey], history: [String] = []) -> (
    String, Int, LineEditorState.Action?
  ) {
    var state = LineEditorState(prompt: "> ", history: history)
    var last: LineEditorState.Action?
    for ch in text { last = state.handle(.character(ch)) }
    for k in keys { last = state.handle(k) }
    return (state.text, state.cursor, last)
  }

  @Test(
    "editing keys",
    arguments: [
      ("abc", [EditorKey.left, .left, .character("X")], "aXbc", 2),
      ("abc", [.control("a"), .character(">")], ">abc", 1),
      ("abc", [.home, .end, .character("!")], "abc!", 4),
      ("name == 1", [.control("a"), .right, .right, .control("k")], "na", 2),
      ("name == 1", [.left, .left, .control("u")], " 1", 0),
      ("distance < 5", [.control("w")], "distance < ", 11),
      ("distance < 5", [.control("w"), .control("w")], "", 0),
      ("a.b.c", [.control("w")], "a.b.", 4),
      ("abc", [.backspace, .backspace], "a", 1),
      ("abc", [.home, .delete], "bc", 0),
      ("abc", [.home, .control("d")], "bc", 0),
      ("ab", [.control("t")], "ba", 2),
      ("one two", [.wordLeft, .character("X")], "one Xtwo", 5),
      ("one two", [.home, .wordRight, .character("X")], "oneX two", 4),
      ("caf", [.character("é"), .left, .backspace], "caé", 2),
    ] as [(String, [EditorKey], String, Int)])
  func editing(_ typed: String, _ keys: [EditorKey], _ text: String, _ cursor: Int) {
    let (t, c, _) = Self.edit(typed, keys)
    #expect(t == text)
    #expect(c == cursor)
  }

  @Test("line-ending actions")
  func actions() {
    #expect(Self.edit("a == 1", [.enter]).2 == .accept("a == 1"))
    #expect(Self.edit("a == 1", [.control("c")]).2 == .interrupt)
    #expect(Self.edit("", [.control("d")]).2 == .endOfInput)
    #expect(Self.edit("x", [.control("d")]).2 == .edit)
    #expect(Self.edit("", [.control("l")]).2 == .clearScreen)
  }

  @Test("history recall with up and down keeps the draft")
  func historyRecall() {
    let h = ["first", "second"]
    #expect(Self.edit("draft", [.up], history: h).0 == "second")
    #expect(Self.edit("draft", [.up, .up], history: h).0 == "first")
    #expect(Self.edit("draft", [.up, .up, .up], history: h).0 == "first")
    #expect(Self.edit("draft", [.up, .down], history: h).0 == "draft")
    #expect(Self.edit("draft", [.up, .up, .down], history: h).0 == "second")
    #expect(Self.edit("", [.up, .character("!")], history: h).0 == "second!")
  }

  @Test("Ctrl-R finds the newest match, again finds older, Ctrl-G restores")
  func reverseSearch() {
    let h = ["distance < 5", "name == 'x'", "distance > 9", "rating > 4"]
    var s = LineEditorState(prompt: "> ", history: h)
    _ = s.handle(.character("q"))
    _ = s.handle(.control("r"))
    #expect(s.displayPrompt == "(reverse-i-search)`': ")
    for ch in "dist" { _ = s.handle(.character(ch)) }
    #expect(s.text == "distance > 9")
    #expect(s.displayPrompt == "(reverse-i-search)`dist': ")
    _ = s.handle(.control("r"))
    #expect(s.text == "distance < 5")
    _ = s.handle(.control("r"))
    #expect(s.text == "distance < 5")
    _ = s.handle(.control("g"))
    #expect(s.text == "q")
    #expect(s.searchQuery == nil)
  }

  @Test("Ctrl-R then Enter accepts the match; another key edits it")
  func reverseSearchAccept() {
    let h = ["distance < 5", "rating > 4"]
    var s = LineEditorState(prompt: "> ", history: h)
    _ = s.handle(.control("r"))
    for ch in "rat" { _ = s.handle(.character(ch)) }
    #expect(s.handle(.enter) == .accept("rating > 4"))

    var t = LineEditorState(prompt: "> ", history: h)
    _ = t.handle(.control("r"))
    for ch in "xyz" { _ = t.handle(.character(ch)) }
    #expect(t.displayPrompt.hasPrefix("(failed reverse-i-search)"))
    #expect(t.text == "")
    _ = t.handle(.control("r"))
    _ = t.handle(.backspace); _ = t.handle(.backspace); _ = t.handle(.backspace)
    _ = t.handle(.character("5"))
    #expect(t.text == "distance < 5")
    _ = t.handle(.end)
    _ = t.handle(.character("0"))
    #expect(t.text == "distance < 50")
    #expect(t.searchQuery == nil)
  }

  @Test(
    "key decoding",
    arguments: [
      ([0x1B, 0x5B, 0x41], EditorKey.up), ([0x1B, 0x5B, 0x42], .down),
      ([0x1B, 0x5B, 0x43], .right), ([0x1B, 0x5B, 0x44], .left),
      ([0x1B, 0x5B, 0x48], .home), ([0x1B, 0x5B, 0x46], .end),
      ([0x1B, 0x4F, 0x48], .home), ([0x1B, 0x4F, 0x46], .end),
      ([0x1B, 0x5B, 0x31, 0x7E], .home), ([0x1B, 0x5B, 0x34, 0x7E], .end),
      ([0x1B, 0x5B, 0x33, 0x7E], .delete),
      ([0x1B, 0x5B, 0x31, 0x3B, 0x35, 0x44], .wordLeft), ([0x1B, 0x62], .wordLeft), ([0x1B, 0x66], .wordRight),
      ([0x01], .control("a")), ([0x12], .control("r")), ([0x03], .control("c")), ([0x17], .control("w")),
      ([0x0D], .enter), ([0x7F], .backspace), ([0x08], .backspace), ([0x09], .tab),
      ([0x61], .character("a")), ([0xC3, 0xA9], .character("é")), ([0xE6, 0x9D, 0xB1], .character("東")),
      ([0xC3], .escape), ([0xFF], .escape), ([0x1B], .escape), ([0x1B, 0x5B, 0x39, 0x39, 0x7E], .escape),
    ] as [([UInt8], EditorKey)])
  func decoding(_ bytes: [UInt8], _ key: EditorKey) {
    var input = bytes
    let decoded = KeyDecoder.next { input.isEmpty ? nil : input.removeFirst() }
    #expect(decoded == key)
    #expect(input.isEmpty)
  }

  @Test("cursor cells count wide characters twice")
  func cursorCells() {
    var s = LineEditorState(prompt: "> ")
    for ch in "東京 x" { _ = s.handle(.character(ch)) }
    #expect(s.cursorCells == 6)
    _ = s.handle(.left)
    #expect(s.cursorCells == 5)
  }
}
