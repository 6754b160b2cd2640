import Foundation
import SiftEvaluation
import SiftSyntax

/// Reading the inputs subcommands share: `--arg JSON`, `--var NAME=JSON`, data files.
enum CommandInputs {
  struct Failure: Error, CustomStringConvertible { var description: String }

  /// Parses each `--arg` value as JSON (batch typing rules).
  static func arguments(_ texts: [String]) throws(Failure) -> [SiftValue] {
    var out: [SiftValue] = []
    for text in texts {
      do { out.append(try SiftJSON.parse(text)) } catch {
        throw Failure(description: "--arg \(text) is not valid JSON (\(error)); quote strings: --arg '\"text\"'")
      }
    }
    return out
  }

  /// Parses `--var NAME=JSON` pairs.
  static func variables(_ texts: [String]) throws(Failure) -> [String: SiftValue] {
    var out: [String: SiftValue] = [:]
    for text in texts {
      guard let eq = text.firstIndex(of: "="), eq != text.startIndex else {
        throw Failure(description: "--var needs NAME=JSON, got '\(text)'")
      }
      var name = String(text[..<eq])
      if name.hasPrefix("$") { name.removeFirst() }
      let json = String(text[text.index(after: eq)...])
      do { out[name] = try SiftJSON.parse(json) } catch {
        throw Failure(description: "--var \(name): '\(json)' is not valid JSON (\(error))")
      }
    }
    return out
  }

  /// A data file: the JSON values (for printing) and fast records (for evaluation), same order.
  struct DataSet {
    var values: [SiftValue]
    var records: [SiftObject]
  }

  /// Loads a JSON array of objects (or JSON Lines) from `path`.
  static func data(_ path: String) throws(Failure) -> DataSet {
    let bytes: [UInt8]
    do {
      bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    } catch {
      throw Failure(description: "cannot read \(path): \(error.localizedDescription)")
    }
    let value: SiftValue
    do {
      value = try SiftJSON.parse(bytes: bytes)
    } catch {
      var items: [SiftValue] = []
      for (n, line) in bytes.split(separator: UInt8(ascii: "\n")).enumerated() {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
        do { items.append(try SiftJSON.parse(bytes: Array(line))) } catch {
          throw Failure(description: "\(path): line \(n + 1): \(error)")
        }
      }
      if items.isEmpty { throw Failure(description: "\(path): \(error)") }
      value = .array(items)
    }
    let values: [SiftValue]
    switch value {
    case .array(let items): values = items
    case .dictionary: values = [value]
    default: throw Failure(description: "\(path): expected an array of objects, found \(value.kindName)")
    }
    do {
      return DataSet(values: values, records: try JSONRecords.records(from: .array(values)))
    } catch {
      throw Failure(description: "\(path): \(error)")
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
