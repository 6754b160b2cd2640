import Foundation
import SiftEvaluation
import SiftSyntax

/// The sample entities shipped in `Resources/sample`: 1,000 bubble-tea `venues` (locations,
/// menus, tags, scores) and 200 `notes` (dates, tags, authors, checklists).
///
/// ```swift
/// let sets = try SampleData.load()
/// sets.map(\.name)   // ["venues", "notes"]
/// ```
enum SampleData {
  /// Columns shown by default for each sample entity.
  static let defaultColumns: [String: [String]] = [
    "venues": ["id", "name", "priceCategory", "distance", "rating", "tipCount", "location.city", "tags"],
    "notes": ["id", "title", "createdAt", "pinned", "wordCount", "language", "tags"],
  ]

  /// Loads both sample entities from the package resources.
  static func load() throws -> [REPLDataSet] {
    try ["venues", "notes"].map { name in
      guard let url = url(name + ".json") else {
        throw REPLDataError("sample file \(name).json is missing from the SiftCLI resources")
      }
      var set = try JSONDataLoader.load(url: url, name: name)
      set.origin = "built-in sample"
      set.defaultColumns = defaultColumns[name] ?? set.defaultColumns
      return set
    }
  }

  /// The sample schema file for SiftSQL, if shipped.
  static var schemaURL: URL? { url("schema.json") }

  static func url(_ file: String) -> URL? {
    let parts = file.split(separator: ".")
    guard parts.count == 2 else { return nil }
    return Bundle.module.url(
      forResource: String(parts[0]), withExtension: String(parts[1]), subdirectory: "Resources/sample")
  }
}

/// Reads JSON record files: a top-level array of objects, a single object, or JSON Lines
/// (one object per line, for `.jsonl`/`.ndjson` or when the whole file is not one value).
///
/// ```swift
/// let set = try JSONDataLoader.load(url: URL(fileURLWithPath: "people.json"), name: "people")
/// ```
enum JSONDataLoader {
  /// Loads a file as a data set named `name`. Records are parsed and converted for evaluation
  /// a batch at a time (see `REPLDataSetBuilder`), and the file's bytes are released before
  /// the data set is built, so a large file is never held as text, values and objects at once.
  /// `dates` says which values besides `{"$date": …}` are dates (`.load … --dates iso8601`).
  static func load(url: URL, name: String, dates: SiftJSONDates = .none) throws -> REPLDataSet {
    let bytes = try readBytes(url)
    if let columns = RecordFile.columns(bytes, dates: dates) {
      return REPLDataSet(name: name, columns: columns, defaultColumns: nil, origin: url.lastPathComponent)
    }
    guard !dates.isNone else {
      return try dataSet(bytes: bytes, path: url.path, name: name, origin: url.lastPathComponent)
    }
    let values: [SiftValue]
    do { values = try JSONRecords.values(bytes: bytes, dates: dates) } catch {
      throw REPLDataError("\(url.path): \(error)")
    }
    var builder = REPLDataSetBuilder()
    for v in values { builder.append(v) }
    return builder.build(name: name, defaultColumns: nil, origin: url.lastPathComponent)
  }

  /// File contents as a data set: records that are all objects are read by the columnar
  /// loader (`RecordFile`); anything else, and every error, goes through `records`.
  static func dataSet(bytes: [UInt8], path: String, name: String, origin: String) throws -> REPLDataSet {
    if let columns = RecordFile.columns(bytes, dates: .none) {
      return REPLDataSet(name: name, columns: columns, defaultColumns: nil, origin: origin)
    }
    if !(path.hasSuffix(".jsonl") || path.hasSuffix(".ndjson")), let objects = JSONRecords.objects(bytes: bytes) {
      let sample = objects.prefix(REPLDataSetBuilder.sampleSize).map(\.siftValue)
      return REPLDataSet(name: name, objects: objects, sample: sample, defaultColumns: nil, origin: origin)
    }
    var builder = try records(bytes: bytes, path: path)
    return builder.build(name: name, defaultColumns: nil, origin: origin)
  }

  /// The bytes of a file, read straight into an array (no intermediate `Data` copy).
  static func readBytes(_ url: URL) throws -> [UInt8] {
    let handle: FileHandle
    do {
      handle = try FileHandle(forReadingFrom: url)
    } catch {
      throw REPLDataError("cannot read \(url.path): \(error.localizedDescription)")
    }
    defer { try? handle.close() }
    var bytes: [UInt8] = []
    while true {
      let chunk: Data?
      do {
        chunk = try handle.read(upToCount: 1 << 22)
      } catch {
        throw REPLDataError("cannot read \(url.path): \(error.localizedDescription)")
      }
      guard let chunk, !chunk.isEmpty else { break }
      bytes.append(contentsOf: chunk)
    }
    return bytes
  }

  /// Parses file contents into records (as values).
  static func parse(bytes: [UInt8], path: String) throws -> [SiftValue] {
    var builder = try records(bytes: bytes, path: path)
    return builder.build(name: "", defaultColumns: nil, origin: "").records
  }

  /// Parses file contents into a builder: a top-level array element by element, else the
  /// whole value, else JSON Lines (always for `.jsonl`/`.ndjson`, or when the whole text is not
  /// one value but its first line is).
  static func records(bytes: [UInt8], path: String) throws -> REPLDataSetBuilder {
    var builder = REPLDataSetBuilder()
    let lines = path.hasSuffix(".jsonl") || path.hasSuffix(".ndjson")
    if !lines {
      if let ranges = JSONArraySplitter.elements(bytes), let built = try? elementwise(bytes, ranges) { return built }
      do {
        switch try SiftJSON.parse(bytes: bytes) {
        case .array(let items): for item in items { builder.append(item) }
        case let single: builder.append(single)
        }
        return builder
      } catch {
        // Fall through to JSON Lines when the first line alone is a complete value.
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")),
          (try? SiftJSON.parse(bytes: Array(bytes[..<newline]))) != nil
        else { throw REPLDataError("\(path): \(error)") }
      }
    }
    var lineNumber = 0
    for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      lineNumber += 1
      if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
      do {
        builder.append(try SiftJSON.parse(bytes: Array(line)))
      } catch {
        throw REPLDataError("\(path):\(lineNumber): \(error.message)")
      }
    }
    return builder
  }

  /// The elements of a top-level array, each parsed on its own.
  private static func elementwise(_ bytes: [UInt8], _ ranges: [Range<Int>]) throws -> REPLDataSetBuilder {
    var builder = REPLDataSetBuilder()
    for r in ranges { builder.append(try SiftJSON.parse(bytes: Array(bytes[r]))) }
    return builder
  }
}

/// A problem loading or opening data, shown as `error: message`.
struct REPLDataError: Error, CustomStringConvertible, Sendable {
  /// What went wrong.
  var message: String
  /// Creates an error.
  init(_ message: String) { self.message = message }
  /// The message.
  var description: String { message }
}
