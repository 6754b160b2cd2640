/// Model checks run by `CoreDataModel.init`: names resolve, no inheritance cycle, no property
/// defined twice along a lineage, fetch indexes and constraints name known properties.
extension CoreDataModel {
  fileprivate func fail(_ line: Int?, _ element: String, _ message: String) -> CoreDataModelError {
    CoreDataModelError(file: file, line: line, element: element, message: message)
  }

  func validate() throws(CoreDataModelError) {
    for e in entities {
      if let p = e.parentName, entity(p) == nil {
        throw fail(e.line, "entity", "entity '\(e.name)' has unknown parentEntity '\(p)'")
      }
      var seen = Set<String>()
      var cursor: CoreDataEntity? = e
      while let c = cursor {
        if !seen.insert(c.name).inserted {
          throw fail(e.line, "entity", "entity '\(e.name)' inherits from itself (cycle through '\(c.name)')")
        }
        cursor = c.parentName.flatMap { entity($0) }
      }
    }
    for e in entities {
      var keys = Set<String>()
      for a in allAttributes(of: e.name) where !keys.insert(a.name).inserted {
        throw fail(
          a.line, "attribute", "property '\(a.name)' is defined twice in entity '\(e.name)' (or its ancestors)")
      }
      for r in allRelationships(of: e.name) {
        if !keys.insert(r.name).inserted {
          throw fail(
            r.line, "relationship", "property '\(r.name)' is defined twice in entity '\(e.name)' (or its ancestors)")
        }
      }
      for r in e.relationships {
        guard entity(r.destination) != nil else {
          throw fail(
            r.line, "relationship", "relationship \(e.name).\(r.name) has unknown destinationEntity '\(r.destination)'")
        }
        if let ie = r.inverseEntity, entity(ie) == nil {
          throw fail(r.line, "relationship", "relationship \(e.name).\(r.name) has unknown inverseEntity '\(ie)'")
        }
        if let inv = r.inverseName, inverse(of: r) == nil {
          throw fail(
            r.line, "relationship",
            "relationship \(e.name).\(r.name) names inverse '\(inv)', which \(r.inverseEntity ?? r.destination) does not have"
          )
        }
      }
      for f in e.fetchedProperties where entity(f.request.entity) == nil {
        throw fail(
          f.line, "fetchedProperty", "fetched property \(e.name).\(f.name) fetches unknown entity '\(f.request.entity)'"
        )
      }
      let allNames = Set(allAttributes(of: e.name).map(\.name) + allRelationships(of: e.name).map(\.name))
      for i in e.fetchIndexes {
        for el in i.elements {
          if case .property(let p) = el.target, !allNames.contains(p) {
            throw fail(i.line, "fetchIndexElement", "fetch index \(e.name).\(i.name) names unknown property '\(p)'")
          }
        }
      }
      for u in e.uniquenessConstraints {
        for p in u where !allNames.contains(p) {
          throw fail(e.line, "constraint", "uniqueness constraint of \(e.name) names unknown property '\(p)'")
        }
      }
    }
    for f in fetchRequests where entity(f.entity) == nil {
      throw fail(f.line, "fetchRequest", "fetch request '\(f.name)' fetches unknown entity '\(f.entity)'")
    }
  }
}
