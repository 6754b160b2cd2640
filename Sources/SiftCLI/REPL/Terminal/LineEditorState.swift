/// The line editor's state and key handling, without any terminal: the text, the cursor,
/// history navigation and Ctrl-R reverse search. `LineEditor` draws it; tests drive it.
///
/// ```swift
/// var state = LineEditorState(prompt: "venues> ", history: ["distance < 5"])
/// _ = state.handle(.up)          // recalls "distance < 5"
/// _ = state.handle(.control("a"))
/// _ = state.handle(.character("("))
/// state.text                     // "(distance < 5"
/// ```
struct LineEditorState: Sendable {
  /// What the caller should do after a key.
  enum Action: Sendable, Hashable {
    /// Keep reading keys (redraw).
    case edit
    /// The line is done.
    case accept(String)
    /// Ctrl-C: drop the line.
    case interrupt
    /// Ctrl-D on an empty line: end of input.
    case endOfInput
    /// Ctrl-L: clear the screen and redraw.
    case clearScreen
  }

  /// The prompt shown before the text.
  var prompt: String
  /// The characters of the line.
  private(set) var characters: [Character] = []
  /// Cursor position, 0...characters.count.
  private(set) var cursor = 0
  /// Older entries first.
  let history: [String]
  /// Position while browsing history (history.count = the line being edited).
  private var historyIndex: Int
  /// The line being edited before browsing history.
  private var draft: [Character] = []
  /// Reverse search: the query, when searching.
  private(set) var searchQuery: String?
  /// Index of the current search hit in `history`.
  private var searchHit: Int?
  /// The line before the search started (restored by Ctrl-G).
  private var searchOrigin: ([Character], Int) = ([], 0)

  /// Creates a state for one line.
  init(prompt: String, history: [String] = []) {
    self.prompt = prompt
    self.history = history
    self.historyIndex = history.count
  }

  /// The text of the line.
  var text: String { String(characters) }

  /// The prompt as drawn: the normal prompt, or the reverse-search prompt.
  var displayPrompt: String {
    guard let q = searchQuery else { return prompt }
    return (searchHit == nil && !q.isEmpty ? "(failed reverse-i-search)`" : "(reverse-i-search)`") + q + "': "
  }

  /// Terminal cells from the start of the text to the cursor.
  var cursorCells: Int { TextWidth.of(String(characters[..<cursor])) }

  /// Applies one key.
  mutating func handle(_ key: EditorKey) -> Action {
    if searchQuery != nil { return handleSearch(key) }
    switch key {
    case .character(let ch): insert(ch)
    case .tab: insert(" "); insert(" ")
    case .enter: return .accept(text)
    case .backspace:
      if cursor > 0 {
        characters.remove(at: cursor - 1)
        cursor -= 1
      }
    case .delete: if cursor < characters.count { characters.remove(at: cursor) }
    case .left, .control("b"): cursor = max(0, cursor - 1)
    case .right, .control("f"): cursor = min(characters.count, cursor + 1)
    case .home, .control("a"): cursor = 0
    case .end, .control("e"): cursor = characters.count
    case .wordLeft: cursor = wordStart(before: cursor)
    case .wordRight: cursor = wordEnd(after: cursor)
    case .up, .control("p"): recall(historyIndex - 1)
    case .down, .control("n"): recall(historyIndex + 1)
    case .control("k"): characters.removeSubrange(cursor...)
    case .control("u"):
      characters.removeSubrange(..<cursor)
      cursor = 0
    case .control("w"):
      let start = wordStart(before: cursor)
      characters.removeSubrange(start..<cursor)
      cursor = start
    case .control("t"):
      if cursor > 0, characters.count >= 2 {
        let i = cursor == characters.count ? cursor - 1 : cursor
        characters.swapAt(i - 1, i)
        cursor = min(characters.count, i + 1)
      }
    case .control("d"):
      if characters.isEmpty { return .endOfInput }
      if cursor < characters.count { characters.remove(at: cursor) }
    case .control("c"): return .interrupt
    case .control("l"): return .clearScreen
    case .control("r"):
      searchOrigin = (characters, cursor)
      searchQuery = ""
      searchHit = nil
    default: break
    }
    return .edit
  }

  private mutating func insert(_ ch: Character) {
    characters.insert(ch, at: cursor)
    cursor += 1
  }

  private mutating func recall(_ index: Int) {
    guard index >= 0, index <= history.count, index != historyIndex else { return }
    if historyIndex == history.count { draft = characters }
    historyIndex = index
    characters = index == history.count ? draft : Array(history[index])
    cursor = characters.count
  }

  private func wordStart(before i: Int) -> Int {
    var j = i
    while j > 0, !isWord(characters[j - 1]) { j -= 1 }
    while j > 0, isWord(characters[j - 1]) { j -= 1 }
    return j
  }

  private func wordEnd(after i: Int) -> Int {
    var j = i
    while j < characters.count, !isWord(characters[j]) { j += 1 }
    while j < characters.count, isWord(characters[j]) { j += 1 }
    return j
  }

  private func isWord(_ ch: Character) -> Bool { ch.isLetter || ch.isNumber || ch == "_" }

  // MARK: Reverse search

  private mutating func handleSearch(_ key: EditorKey) -> Action {
    guard var query = searchQuery else { return .edit }
    switch key {
    case .character(let ch):
      query.append(ch)
      searchQuery = query
      search(from: searchHit ?? history.count - 1)
    case .backspace:
      if !query.isEmpty { query.removeLast() }
      searchQuery = query
      search(from: history.count - 1)
    case .control("r"):
      search(from: (searchHit ?? history.count) - 1)
    case .control("g"), .control("c"):
      (characters, cursor) = searchOrigin
      searchQuery = nil
      searchHit = nil
    case .enter:
      searchQuery = nil
      return .accept(text)
    default:
      // Any other key leaves the search with the found line and then acts normally.
      searchQuery = nil
      historyIndex = searchHit ?? history.count
      searchHit = nil
      if key == .escape { return .edit }
      return handle(key)
    }
    return .edit
  }

  /// Finds the newest entry at or before `start` containing the query; shows it.
  private mutating func search(from start: Int) {
    guard let query = searchQuery, !query.isEmpty else {
      searchHit = nil
      (characters, cursor) = searchOrigin
      return
    }
    var i = min(start, history.count - 1)
    while i >= 0 {
      if let r = history[i].range(of: query) {
        searchHit = i
        characters = Array(history[i])
        cursor = history[i].distance(from: history[i].startIndex, to: r.lowerBound)
        return
      }
      i -= 1
    }
    // No (older) match: keep the last hit, mark the search as failed when there was none.
    if searchHit == nil {
      (characters, cursor) = searchOrigin
    }
  }
}
