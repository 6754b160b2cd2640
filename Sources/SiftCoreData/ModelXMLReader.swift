/// Turns the element tree into model values, rejecting what it does not know.
struct ModelXMLReader {
  let file: String
  /// What was left out of the model, one line each (`CoreDataModel.warnings`).
  var warnings: [String] = []

  /// Elements that carry nothing Sift uses (diagram layout, user info).
  static let ignoredModelChildren: Set<String> = ["elements"]
  /// The `<configuration>` elements read, in file order.
  var configurations: [CoreDataConfiguration] = []
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
      case "configuration": configurations.append(try configuration(child))
      // Xcode 15's composite types, used by an entity's Composite attributes (left out there).
      case "composite", "compositeAttribute": continue
      default:
        if Self.ignoredModelChildren.contains(child.name) { continue }
        throw fail(child, "unknown element <\(child.name)> in <model>")
      }
    }
    return (entities, requests)
  }

  func configuration(_ node: ModelXMLNode) throws(CoreDataModelError) -> CoreDataConfiguration {
    let name = try required(node, "name")
    var members: [String] = []
    for child in node.children {
      guard child.name == "memberEntity" else {
        throw fail(child, "unknown element <\(child.name)> in configuration '\(name)'")
      }
      members.append(try required(child, "name"))
    }
    if configurations.contains(where: { $0.name == name }) {
      throw fail(node, "configuration '\(name)' is defined twice")
    }
    return CoreDataConfiguration(
      name: name, entities: members, isUsedWithCloudKit: try flag(node, "usedWithCloudKit"), line: node.line)
  }

  mutating func entity(_ node: ModelXMLNode) throws(CoreDataModelError) -> CoreDataEntity {
    var e = CoreDataEntity(
      name: try required(node, "name"), representedClassName: node.attributes["representedClassName"],
      parentName: node.attributes["parentEntity"], isAbstract: try flag(node, "isAbstract"), line: node.line)
    for child in node.children {
      switch child.name {
      case "attribute" where child.attributes["attributeType"] == "Composite":
        leaveOutComposite(child, of: e.name)
      case "attribute": e.attributes.append(try attribute(child))
      case "relationship": e.relationships.append(try relationship(child))
      case "fetchedProperty": e.fetchedProperties.append(try fetchedProperty(child))
      case "fetchIndex": e.fetchIndexes.append(try fetchIndex(child))
      case "uniquenessConstraints": e.uniquenessConstraints += try uniquenessConstraints(child)
      case "compoundIndexes": e.fetchIndexes += try compoundIndexes(child, first: e.fetchIndexes.count + 1)
      case "compositeAttribute": leaveOutComposite(child, of: e.name)
      default:
        if Self.ignoredEntityChildren.contains(child.name) { continue }
        throw fail(child, "unknown element <\(child.name)> in entity '\(e.name)'")
      }
    }
    return e
  }

  /// A composite attribute (Xcode 15, `attributeType="Composite"`: a group of elements Core
  /// Data stores as columns of the entity's table) is left out with a warning, the rest of the
  /// model read as usual: which columns hold its elements is not known to Sift, so a key path
  /// through it (`magnitude.richter`) is an unknown key rather than a guess.
  mutating func leaveOutComposite(_ node: ModelXMLNode, of entity: String) {
    let name = node.attributes["name"] ?? "?"
    let line = ":\(node.line)"
    warnings.append(
      "\(file)\(line): attribute \(entity).\(name) is a composite attribute (Xcode 15), which Sift does not read yet; "
        + "left out (its key paths, such as \(name).ELEMENT, are unknown keys)")
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
