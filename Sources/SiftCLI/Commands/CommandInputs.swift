import Foundation
import SiftColumnar
import SiftEvaluation
import SiftSyntax

/// Reading the inputs subcommands share: `--arg JSON`, `--var NAME=JSON`, data files.
enum CommandInputs {
  /// Why a command's input could not be used, and which kind of failure that is: a value
  /// given to an option that does not parse is a usage error (exit status 2); a file that
  /// cannot be read or holds bad records is a failure (1). The exit status comes from `kind`,
  /// never from the text.
  struct Failure: Error, CustomStringConvertible {
    var description: String
    /// `.usage` or `.failure` (the default).
    var kind: ExitStatus = .failure

    /// A failure of kind `.failure`.
    init(description: String) { self.description = description }

    /// A usage error: the command line was wrong.
    static func usage(_ description: String) -> Failure {
      var f = Failure(description: description)
      f.kind = .usage
      return f
    }
  }

  /// Parses each `--arg` value as JSON (batch typing rules).
  static func arguments(_ texts: [String]) throws(Failure) -> [SiftValue] {
    var out: [SiftValue] = []
    for text in texts {
      do { out.append(try SiftJSON.parse(text)) } catch {
        throw Failure.usage("--arg \(text) is not valid JSON (\(error)); quote strings: --arg '\"text\"'")
      }
    }
    return out
  }

  /// Parses `--var NAME=JSON` pairs.
  static func variables(_ texts: [String]) throws(Failure) -> [String: SiftValue] {
    var out: [String: SiftValue] = [:]
    for text in texts {
      guard let eq = text.firstIndex(of: "="), eq != text.startIndex else {
        throw Failure.usage("--var needs NAME=JSON, got '\(text)'")
      }
      var name = String(text[..<eq])
      if name.hasPrefix("$") { name.removeFirst() }
      let json = String(text[text.index(after: eq)...])
      do { out[name] = try SiftJSON.parse(json) } catch {
        throw Failure.usage("--var \(name): '\(json)' is not valid JSON (\(error))")
      }
    }
    return out
  }

  /// A data file: the JSON values (for printing) and, when every record is an object, fast
  /// records (for evaluation), same order. Records may be plain values (`["Do", "Re"]`): they
  /// are evaluated as themselves, `SELF`. A file the columnar loader read is held as columns;
  /// its rows are built only when a command asks for them (printing a match reads one record).
  struct DataSet {
    /// The records as columns, when the columnar loader read the file (every record an
    /// object): filters scan them with kernels.
    let columns: SiftColumnarRecords?
    private let rows: LazyRows

    init(values: [SiftValue]) {
      columns = nil
      rows = LazyRows(values: values)
    }

    /// Records read by the columnar loader: the file is parsed once, into columns.
    init(columns: SiftColumnarRecords) {
      self.columns = columns
      rows = LazyRows(columns: columns)
    }

    /// Every record as a JSON value.
    var values: [SiftValue] { rows.values }
    /// The records as `SiftObject`s; nil when some record is not an object.
    var records: [SiftObject]? { rows.records }

    /// Record `i` as a JSON value, without building the others.
    func value(at i: Int) -> SiftValue { columns?.record(at: i) ?? rows.values[i] }

    /// Indices of the records `matcher` matches, in order, scanned on `workers` threads
    /// (default every core).
    func matchingIndices(
      _ matcher: SiftMatcher, variables: [String: SiftValue],
      workers: Int = ProcessInfo.processInfo.activeProcessorCount
    ) throws(SiftError) -> [Int] {
      if let columns,
        let found = try matcher.kernelIndices(columns, in: 0..<columns.count, variables: variables, workers: workers)
      {
        return found
      }
      if let records {
        return try matcher.matchingIndices(records, in: records.indices, variables: variables, workers: workers)
      }
      return try matcher.matchingIndices(values, in: values.indices, variables: variables, workers: workers)
    }

    /// Why the records cannot be rows of a SQL table ("record 0 is string, not an object"),
    /// or nil when they all are objects.
    var notRowsReason: String? {
      guard records == nil, let i = values.firstIndex(where: { if case .dictionary = $0 { false } else { true } })
      else { return nil }
      return "record \(i) is \(values[i].kindName), not an object"
    }
  }

  /// Loads a JSON array of records (or one record, or JSON Lines) from `path`; a record is an
  /// object or a plain value. Records that are all objects are read by the columnar loader
  /// (`RecordFile.columns`, as every command and the REPL read them); anything else, and every
  /// error, the general way (`RecordFile.values`).
  static func data(_ path: String, dates: SiftJSONDates = .none) throws(Failure) -> DataSet {
    let bytes: [UInt8]
    do {
      bytes = try SiftJSON.fileBytes(URL(fileURLWithPath: path), name: path)
    } catch {
      throw Failure(description: error.message)
    }
    if let columns = RecordFile.columns(bytes, dates: dates) { return DataSet(columns: columns) }
    return DataSet(values: try RecordFile.values(bytes, path: path, dates: dates))
  }

  /// A text file a command names (schema, policy, date formats): its contents, or a failure
  /// naming it.
  static func text(_ path: String) throws(Failure) -> String {
    do {
      return try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
    } catch {
      throw Failure(description: "cannot read \(path): \(error.localizedDescription)")
    }
  }

  /// The `--dates` options (`iso8601`, `seconds`, `milliseconds`, `KEY=FORMAT`, or a JSON file
  /// of key paths and formats) as one strategy.
  static func dates(_ specs: [String]) throws(Failure) -> SiftJSONDates {
    var texts: [String] = []
    for spec in specs {
      if spec.hasSuffix(".json") {
        texts.append(try text(spec))
      } else {
        texts.append(spec)
      }
    }
    do { return try SiftJSONDates(specifications: texts) } catch {
      throw Failure.usage(
        "--dates: \(error.message) (use iso8601, seconds, milliseconds, KEY=FORMAT or FILE.json)")
    }
  }
}

extension SiftError {
  /// The `error` object of the batch contract.
  var batchJSON: SiftValue {
    let loc = location
    return [
      "id": .string(diagnostic.id), "message": .string(diagnostic.message),
      "line": .int(Int64(loc.line)), "column": .int(Int64(loc.column)),
      "offset": .int(Int64(diagnostic.range.start)),
    ]
  }
}
