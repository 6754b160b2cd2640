/// An interactive line reader: raw-mode editing with arrows, Home/End, Ctrl-A/E/K/U/W/T,
/// history (↑/↓) and Ctrl-R reverse search, redrawn in place (long lines wrap).
///
/// ```swift
/// let editor = LineEditor(history: REPLHistory(path: "~/.sift_history"))
/// while case .line(let text) = editor.readLine(prompt: "sift> ") { … }
/// ```
final class LineEditor: REPLLineSource {
  let terminal: RawTerminal
  let history: REPLHistory
  /// Colors for the prompt.
  let style: REPLStyle
  /// Rows above the cursor used by the last draw.
  private var cursorRow = 0

  init(terminal: RawTerminal = RawTerminal(), history: REPLHistory, style: REPLStyle) {
    self.terminal = terminal
    self.history = history
    self.style = style
  }

  func readLine(prompt: String) -> REPLLineResult {
    guard terminal.enableRawMode() else { return .endOfInput }
    defer { terminal.restore() }
    var state = LineEditorState(prompt: prompt, history: history.entries)
    cursorRow = 0
    draw(state)
    while let key = KeyDecoder.next({ terminal.readByte() }) {
      switch state.handle(key) {
      case .edit: draw(state)
      case .accept(let line):
        draw(state, cursorAtEnd: true)
        terminal.write("\r\n")
        return .line(line)
      case .interrupt:
        draw(state, cursorAtEnd: true)
        terminal.write("^C\r\n")
        return .interrupted
      case .endOfInput:
        terminal.write("\r\n")
        return .endOfInput
      case .clearScreen:
        terminal.write("\u{1B}[H\u{1B}[2J")
        cursorRow = 0
        draw(state)
      }
    }
    return .endOfInput
  }

  func add(toHistory entry: String) { history.add(entry) }

  /// Redraws prompt and text, then puts the cursor where the state says.
  private func draw(_ state: LineEditorState, cursorAtEnd: Bool = false) {
    let width = max(1, terminal.columns)
    let prompt = state.displayPrompt
    let promptCells = TextWidth.of(prompt)
    var out = ""
    if cursorRow > 0 { out += "\u{1B}[\(cursorRow)A" }
    out += "\r\u{1B}[J" + (state.searchQuery == nil ? style.cyan(prompt) : prompt) + state.text
    let endCells = promptCells + TextWidth.of(state.text)
    let cursorCells = promptCells + (cursorAtEnd ? TextWidth.of(state.text) : state.cursorCells)
    let endRow = endCells / width
    if endCells > 0, endCells % width == 0 { out += "\r\n" }
    let row = cursorCells / width
    let column = cursorCells % width
    if endRow > row { out += "\u{1B}[\(endRow - row)A" }
    out += "\r"
    if column > 0 { out += "\u{1B}[\(column)C" }
    cursorRow = row
    terminal.write(out)
  }
}
