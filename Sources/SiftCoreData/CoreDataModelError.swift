import SiftSyntax

/// A model that cannot be read: malformed XML, an unknown element or attribute type, a name
/// that does not resolve, or a bundle without a usable version. Names the file, the line and
/// the element when they are known.
///
/// ```swift
/// do { _ = try CoreDataModel(contentsOf: url) } catch {
///   print(error)   // Library.xcdatamodel/contents:12: <attribute>: unknown attributeType 'Integer 128' …
/// }
/// ```
public struct CoreDataModelError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file read (a `contents` XML, an `.xccurrentversion` plist or a bundle folder).
  public var file: String
  /// The 1-based line, when known.
  public var line: Int?
  /// The element's name (`attribute`, `entity`, …), when one is at fault.
  public var element: String?
  /// What is wrong.
  public var message: String

  /// Creates an error.
  public init(file: String, line: Int? = nil, element: String? = nil, message: String) {
    self.file = file
    self.line = line
    self.element = element
    self.message = message
  }

  /// `file:line: <element>: message`.
  public var description: String {
    var s = file
    if let line { s += ":\(line)" }
    s += ": "
    if let element { s += "<\(element)>: " }
    return s + message
  }
}

extension SiftError {
  /// A Core Data problem as Sift's one error type (stage `.model`), the detailed error kept as
  /// `underlying`: `invalid-model` for a `CoreDataModelError` (file, line, element),
  /// `invalid-store` for a `CoreDataStoreError`; a `SiftError` passes through.
  package static func model(_ error: any Error) -> SiftError {
    switch error {
    case let e as SiftError: return e
    case let e as CoreDataModelError:
      return SiftError(stage: .model, id: .invalidModel, message: e.description, underlying: e)
    case let e as CoreDataStoreError:
      return SiftError(stage: .model, id: .invalidStore, message: e.description, underlying: e)
    default: return SiftError(stage: .model, id: .invalidStore, message: "\(error)", underlying: error)
    }
  }
}
