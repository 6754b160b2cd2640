import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// One XML element with its attributes, line and children.
struct ModelXMLNode {
  var name: String
  var attributes: [String: String]
  var line: Int
  var children: [ModelXMLNode] = []
}

/// Builds a `ModelXMLNode` tree with `XMLParser`, at most `maxDepth` elements deep.
final class ModelXMLTree: NSObject, XMLParserDelegate {
  /// The deepest nesting read. A model is a few levels deep (model, entity, fetched property,
  /// fetch request); a file nested far deeper is refused before its tree could exhaust the
  /// stack (building it is iterative, but freeing a nested value tree recurses).
  static let maxDepth = 64
  private var stack: [ModelXMLNode] = []
  private var root: ModelXMLNode?
  private weak var parser: XMLParser?
  /// The line where nesting went past `maxDepth`.
  private var tooDeep: Int?

  static func parse(_ data: Data, file: String) throws(CoreDataModelError) -> ModelXMLNode {
    let parser = XMLParser(data: data)
    let builder = ModelXMLTree()
    builder.parser = parser
    parser.delegate = builder
    parser.shouldProcessNamespaces = false
    parser.shouldResolveExternalEntities = false
    let ok = parser.parse()
    if let line = builder.tooDeep {
      throw CoreDataModelError(
        file: file, line: line,
        message: "elements nested more than \(maxDepth) deep: not a Core Data model (a model is a few levels deep)")
    }
    if !ok || builder.root == nil {
      let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "no root element"
      throw CoreDataModelError(file: file, line: max(parser.lineNumber, 1), message: "malformed XML: \(reason)")
    }
    return builder.root!
  }

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
    attributes attributeDict: [String: String] = [:]
  ) {
    guard tooDeep == nil else { return }
    guard stack.count < Self.maxDepth else {
      tooDeep = parser.lineNumber
      stack = []
      parser.abortParsing()
      return
    }
    stack.append(ModelXMLNode(name: elementName, attributes: attributeDict, line: parser.lineNumber))
  }

  func parser(
    _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
  ) {
    guard tooDeep == nil, let node = stack.popLast() else { return }
    if stack.isEmpty { root = node } else { stack[stack.count - 1].children.append(node) }
  }
}
