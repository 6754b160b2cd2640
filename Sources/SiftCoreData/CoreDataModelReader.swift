import Foundation
import SiftSyntax

#if canImport(FoundationXML)
  import FoundationXML
#endif

extension CoreDataModel {
  /// Reads a model from an `.xcdatamodeld` bundle (the version `.xccurrentversion` names, else
  /// its only version), an `.xcdatamodel` folder, or a `contents` XML file.
  ///
  /// ```swift
  /// let model = try CoreDataModel(contentsOf: URL(fileURLWithPath: "Library.xcdatamodeld"))
  /// ```
  /// - Throws: `SiftError` (stage `.model`, id `invalid-model`) naming the file, line and
  ///   element at fault; its `underlying` is the `CoreDataModelError`.
  public init(contentsOf url: URL) throws(SiftError) {
    do throws(CoreDataModelError) { try self.init(reading: url) } catch { throw SiftError.model(error) }
  }

  init(reading url: URL) throws(CoreDataModelError) {
    let fm = FileManager.default
    var isDirectory: ObjCBool = false
    guard fm.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
      throw CoreDataModelError(file: url.path, message: "no such file or folder")
    }
    if !isDirectory.boolValue {
      try self.init(contentsFile: url, versionName: nil)
      return
    }
    if url.pathExtension == "xcdatamodel" || fm.fileExists(atPath: url.appendingPathComponent("contents").path) {
      try self.init(versionFolder: url, versionName: nil)
      return
    }
    let version = try CoreDataModel.versionName(ofBundle: url)
    try self.init(versionFolder: url.appendingPathComponent(version), versionName: version)
  }

  /// Reads a model from the text of a `contents` XML file; `file` names it in errors.
  ///
  /// ```swift
  /// let model = try CoreDataModel(xml: #"<model><entity name="Tag"/></model>"#, file: "inline")
  /// ```
  /// - Throws: `SiftError` (stage `.model`).
  public init(xml: String, file: String = "<model>") throws(SiftError) {
    do throws(CoreDataModelError) { try self.init(xmlData: Data(xml.utf8), file: file, versionName: nil) } catch {
      throw SiftError.model(error)
    }
  }

  /// The version folder name (`Model 2.xcdatamodel`) an `.xcdatamodeld` bundle makes current:
  /// the `_XCCurrentVersionName` of its `.xccurrentversion` plist, else its only version.
  ///
  /// ```swift
  /// try CoreDataModel.currentVersion(ofBundle: URL(fileURLWithPath: "Library.xcdatamodeld"))   // "Library 2.xcdatamodel"
  /// ```
  /// - Throws: `SiftError` (stage `.model`) when the plist is unreadable, names a missing
  ///   version, or there is no plist and not exactly one version.
  public static func currentVersion(ofBundle bundle: URL) throws(SiftError) -> String {
    do throws(CoreDataModelError) { return try versionName(ofBundle: bundle) } catch { throw SiftError.model(error) }
  }

  static func versionName(ofBundle bundle: URL) throws(CoreDataModelError) -> String {
    let fm = FileManager.default
    let names = ((try? fm.contentsOfDirectory(atPath: bundle.path)) ?? [])
      .filter { $0.hasSuffix(".xcdatamodel") }.sorted()
    let plistURL = bundle.appendingPathComponent(".xccurrentversion")
    if fm.fileExists(atPath: plistURL.path) {
      let file = plistURL.path
      guard let data = fm.contents(atPath: file) else {
        throw CoreDataModelError(file: file, message: "cannot read the file")
      }
      let plist: Any
      do { plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil) } catch {
        throw CoreDataModelError(
          file: file, element: "plist", message: "not a property list: \(error.localizedDescription)")
      }
      guard let dict = plist as? [String: Any], let name = dict["_XCCurrentVersionName"] as? String else {
        throw CoreDataModelError(file: file, element: "plist", message: "no _XCCurrentVersionName string")
      }
      guard names.contains(name) else {
        throw CoreDataModelError(
          file: file, element: "plist",
          message:
            "_XCCurrentVersionName names '\(name)', which the bundle does not contain (it has: \(names.joined(separator: ", ")))"
        )
      }
      return name
    }
    if names.count == 1 { return names[0] }
    if names.isEmpty {
      throw CoreDataModelError(
        file: bundle.path, message: "not a Core Data model: no .xcdatamodel version and no contents file")
    }
    throw CoreDataModelError(
      file: bundle.path,
      message: "\(names.count) model versions (\(names.joined(separator: ", "))) and no .xccurrentversion to choose one"
    )
  }

  init(versionFolder: URL, versionName: String?) throws(CoreDataModelError) {
    let contents = versionFolder.appendingPathComponent("contents")
    guard FileManager.default.fileExists(atPath: contents.path) else {
      if FileManager.default.fileExists(atPath: versionFolder.appendingPathComponent("elements").path) {
        throw CoreDataModelError(
          file: versionFolder.path,
          message:
            "an old binary model (an 'elements' archive, Xcode 3); open and save it in Xcode 4 or later to get XML 'contents'"
        )
      }
      throw CoreDataModelError(file: versionFolder.path, message: "no 'contents' file in the model folder")
    }
    try self.init(contentsFile: contents, versionName: versionName)
  }

  init(contentsFile: URL, versionName: String?) throws(CoreDataModelError) {
    guard let data = FileManager.default.contents(atPath: contentsFile.path) else {
      throw CoreDataModelError(file: contentsFile.path, message: "cannot read the file")
    }
    try self.init(xmlData: data, file: contentsFile.path, versionName: versionName)
  }

  init(xmlData: Data, file: String, versionName: String?) throws(CoreDataModelError) {
    let root = try ModelXMLTree.parse(xmlData, file: file)
    var reader = ModelXMLReader(file: file)
    let (entities, requests) = try reader.model(root)
    try self.init(checking: entities, fetchRequests: requests, file: file, versionName: versionName)
  }
}

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

/// Turns the element tree into model values, rejecting what it does not know.
struct ModelXMLReader {
  let file: String

  /// Elements that carry nothing Sift uses (diagram layout, user info, configurations).
  static let ignoredModelChildren: Set<String> = ["elements", "configuration"]
  static let ignoredEntityChildren: Set<String> = ["userInfo"]

  func fail(_ node: ModelXMLNode, _ message: String) -> CoreDataModelError {
    CoreDataModelError(file: file, line: node.line, element: node.name, message: message)
  }

  func required(_ node: ModelXMLNode, _ key: String) throws(CoreDataModelError) -> String {
    guard let v = node.attributes[key], !v.isEmpty else { throw fail(node, "missing the \(key) attribute") }
    return v
  }

  /// `YES`/`NO` (also `true`/`false`); absent is `fallback`.
  func flag(_ node: ModelXMLNode, _ key: String, default fallback: Bool = false) throws(CoreDataModelError) -> Bool {
    guard let v = node.attributes[key] else { return fallback }
    switch v {
    case "YES", "yes", "true", "1": return true
    case "NO", "no", "false", "0": return false
    default: throw fail(node, "\(key)=\"\(v)\" is not YES or NO")
    }
  }

  func integer(_ node: ModelXMLNode, _ key: String) throws(CoreDataModelError) -> Int? {
    guard let v = node.attributes[key] else { return nil }
    guard let n = Int(v) else { throw fail(node, "\(key)=\"\(v)\" is not an integer") }
    return n
  }

  mutating func model(_ root: ModelXMLNode) throws(CoreDataModelError) -> ([CoreDataEntity], [CoreDataFetchRequest]) {
    guard root.name == "model" else {
      throw fail(root, "the root element is <\(root.name)>, not <model>: not a Core Data model")
    }
    var entities: [CoreDataEntity] = []
    var requests: [CoreDataFetchRequest] = []
    for child in root.children {
      switch child.name {
      case "entity": entities.append(try entity(child))
      case "fetchRequest": requests.append(try fetchRequest(child, named: true))
      default:
        if Self.ignoredModelChildren.contains(child.name) { continue }
        throw fail(child, "unknown element <\(child.name)> in <model>")
      }
    }
    return (entities, requests)
  }

  func entity(_ node: ModelXMLNode) throws(CoreDataModelError) -> CoreDataEntity {
    var e = CoreDataEntity(
      name: try required(node, "name"), representedClassName: node.attributes["representedClassName"],
      parentName: node.attributes["parentEntity"], isAbstract: try flag(node, "isAbstract"), line: node.line)
    for child in node.children {
      switch child.name {
      case "attribute": e.attributes.append(try attribute(child))
      case "relationship": e.relationships.append(try relationship(child))
      case "fetchedProperty": e.fetchedProperties.append(try fetchedProperty(child))
      case "fetchIndex": e.fetchIndexes.append(try fetchIndex(child))
      case "uniquenessConstraints": e.uniquenessConstraints += try uniquenessConstraints(child)
      case "compoundIndexes": e.fetchIndexes += try compoundIndexes(child, first: e.fetchIndexes.count + 1)
      case "compositeAttribute":
        throw fail(
          child,
          "composite attribute '\(child.attributes["name"] ?? "?")' of entity '\(e.name)': composite attributes are not supported yet"
        )
      default:
        if Self.ignoredEntityChildren.contains(child.name) { continue }
        throw fail(child, "unknown element <\(child.name)> in entity '\(e.name)'")
      }
    }
    return e
  }

  func attribute(_ node: ModelXMLNode) throws(CoreDataModelError) -> CoreDataAttribute {
    let name = try required(node, "name")
    // Xcode saves a transient attribute of type "Undefined" without an attributeType.
    let transientFlag = try flag(node, "transient")
    let typeName =
      node.attributes["attributeType"] == nil && transientFlag ? "Undefined" : try required(node, "attributeType")
    guard let type = CoreDataAttributeType(rawValue: typeName) else {
      let known = CoreDataAttributeType.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
      throw fail(node, "attribute '\(name)' has unknown attributeType '\(typeName)' (known: \(known))")
    }
    let transient = try flag(node, "transient")
    let derived = try flag(node, "derived")
    if !type.isStorable && !transient {
      throw fail(node, "attribute '\(name)' has type '\(typeName)', which only a transient attribute may have")
    }
    for child in node.children where child.name != "userInfo" {
      throw fail(child, "unknown element <\(child.name)> in attribute '\(name)'")
    }
    return CoreDataAttribute(
      name: name, type: type, isOptional: try flag(node, "optional"), isTransient: transient, isDerived: derived,
      derivationExpression: node.attributes["derivationExpression"],
      defaultValue: node.attributes["defaultValueString"],
      isIndexed: try flag(node, "indexed"), line: node.line)
  }

  func relationship(_ node: ModelXMLNode) throws(CoreDataModelError) -> CoreDataRelationship {
    let name = try required(node, "name")
    let rule: CoreDataRelationship.DeletionRule
    if let r = node.attributes["deletionRule"] {
      guard let known = CoreDataRelationship.DeletionRule(rawValue: r) else {
        throw fail(node, "relationship '\(name)' has unknown deletionRule '\(r)'")
      }
      rule = known
    } else {
      rule = .nullify
    }
    for child in node.children where child.name != "userInfo" {
      throw fail(child, "unknown element <\(child.name)> in relationship '\(name)'")
    }
    return CoreDataRelationship(
      name: name, destination: try required(node, "destinationEntity"), inverseName: node.attributes["inverseName"],
      inverseEntity: node.attributes["inverseEntity"], isToMany: try flag(node, "toMany"),
      isOrdered: try flag(node, "ordered"), isOptional: try flag(node, "optional"),
      minCount: try integer(node, "minCount"), maxCount: try integer(node, "maxCount"), deletionRule: rule,
      isTransient: try flag(node, "transient"), line: node.line)
  }

  func fetchRequest(_ node: ModelXMLNode, named: Bool) throws(CoreDataModelError) -> CoreDataFetchRequest {
    let name = named ? try required(node, "name") : (node.attributes["name"] ?? "")
    let limit = try integer(node, "fetchLimit")
    var options = node.attributes
    for k in ["name", "entity", "predicateString", "fetchLimit"] { options[k] = nil }
    for child in node.children where child.name != "userInfo" {
      throw fail(child, "unknown element <\(child.name)> in fetch request '\(name)'")
    }
    let predicate = node.attributes["predicateString"]
    return CoreDataFetchRequest(
      name: name, entity: try required(node, "entity"), predicateString: predicate?.isEmpty == true ? nil : predicate,
      fetchLimit: limit == 0 ? nil : limit, options: options, line: node.line)
  }

  func fetchedProperty(_ node: ModelXMLNode) throws(CoreDataModelError) -> CoreDataFetchedProperty {
    let name = try required(node, "name")
    var request: CoreDataFetchRequest?
    for child in node.children {
      switch child.name {
      case "fetchRequest":
        if request != nil { throw fail(child, "fetched property '\(name)' has two fetch requests") }
        request = try fetchRequest(child, named: false)
      case "userInfo": continue
      default: throw fail(child, "unknown element <\(child.name)> in fetched property '\(name)'")
      }
    }
    guard let request else { throw fail(node, "fetched property '\(name)' has no <fetchRequest>") }
    return CoreDataFetchedProperty(name: name, request: request, line: node.line)
  }

  func fetchIndex(_ node: ModelXMLNode) throws(CoreDataModelError) -> CoreDataFetchIndex {
    let name = try required(node, "name")
    var elements: [CoreDataFetchIndex.Element] = []
    for child in node.children {
      guard child.name == "fetchIndexElement" else {
        throw fail(child, "unknown element <\(child.name)> in fetch index '\(name)'")
      }
      let target: CoreDataFetchIndex.Element.Target
      if let p = child.attributes["property"] {
        target = .property(p)
      } else if let x = child.attributes["expression"] {
        target = .expression(x)
      } else {
        throw fail(child, "fetch index element needs a property or an expression")
      }
      let order = child.attributes["order"] ?? "ascending"
      guard order == "ascending" || order == "descending" else {
        throw fail(child, "order=\"\(order)\" is not ascending or descending")
      }
      elements.append(
        .init(target: target, indexType: child.attributes["type"] ?? "Binary", ascending: order == "ascending"))
    }
    if elements.isEmpty { throw fail(node, "fetch index '\(name)' has no elements") }
    return CoreDataFetchIndex(name: name, elements: elements, line: node.line)
  }

  /// The older `<compoundIndexes><compoundIndex><index value="a"/>…` element (Xcode 8 and
  /// before), read as fetch indexes named `compoundIndex1`, … (ascending, binary).
  func compoundIndexes(_ node: ModelXMLNode, first: Int) throws(CoreDataModelError) -> [CoreDataFetchIndex] {
    var out: [CoreDataFetchIndex] = []
    for c in node.children {
      guard c.name == "compoundIndex" else { throw fail(c, "unknown element <\(c.name)> in compound indexes") }
      var elements: [CoreDataFetchIndex.Element] = []
      for i in c.children {
        guard i.name == "index" else { throw fail(i, "unknown element <\(i.name)> in a compound index") }
        elements.append(.init(target: .property(try required(i, "value")), indexType: "Binary", ascending: true))
      }
      if elements.isEmpty { throw fail(c, "empty compound index") }
      out.append(CoreDataFetchIndex(name: "compoundIndex\(first + out.count)", elements: elements, line: c.line))
    }
    return out
  }

  func uniquenessConstraints(_ node: ModelXMLNode) throws(CoreDataModelError) -> [[String]] {
    var out: [[String]] = []
    for c in node.children {
      guard c.name == "uniquenessConstraint" else {
        throw fail(c, "unknown element <\(c.name)> in uniqueness constraints")
      }
      var names: [String] = []
      for v in c.children {
        guard v.name == "constraint" else { throw fail(v, "unknown element <\(v.name)> in a uniqueness constraint") }
        names.append(try required(v, "value"))
      }
      if names.isEmpty { throw fail(c, "empty uniqueness constraint") }
      out.append(names)
    }
    return out
  }
}
