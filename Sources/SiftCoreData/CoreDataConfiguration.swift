import SiftSyntax

/// A configuration of a model (`<configuration name="Cloud"><memberEntity name="Tag"/>…`):
/// the entities one store holds when a model spreads its entities over several stores.
/// Core Data's default configuration (Xcode's "Default") holds every entity.
///
/// ```swift
/// model.configurations.map(\.name)          // ["Cloud"]
/// try model.restricted(toConfiguration: "Cloud").entities.map(\.name)   // ["Tag"]
/// ```
public struct CoreDataConfiguration: Sendable, Hashable {
  /// The configuration's name.
  public var name: String
  /// Its member entities, in file order.
  public var entities: [String]
  /// `usedWithCloudKit="YES"`.
  public var isUsedWithCloudKit: Bool
  /// The line of the `<configuration>` element, when read from a file.
  public var line: Int?

  /// Creates a configuration.
  public init(name: String, entities: [String], isUsedWithCloudKit: Bool = false, line: Int? = nil) {
    self.name = name
    self.entities = entities
    self.isUsedWithCloudKit = isUsedWithCloudKit
    self.line = line
  }
}

extension CoreDataModel {
  /// The name of the configuration that holds every entity (Xcode's "Default"), unless the
  /// model declares a configuration of that name itself.
  public static let defaultConfigurationName = "Default"

  /// The model as a store of configuration `name` sees it: its member entities (with their
  /// ancestors, whose tables they share), relationships and fetch request templates among
  /// them only. `"Default"` is the whole model unless the file declares a `Default`.
  /// Relationships to entities outside it are left out, each with a line in `warnings`.
  ///
  /// ```swift
  /// let cloud = try model.restricted(toConfiguration: "Cloud")
  /// cloud.entity("Book")   // nil
  /// ```
  /// - Throws: `SiftError` (stage `.model`, id `invalid-model`) for an unknown name, listing
  ///   the names the model has, or a member entity the model does not define.
  public func restricted(toConfiguration name: String) throws(SiftError) -> CoreDataModel {
    guard let config = configurations.first(where: { $0.name == name }) else {
      if name == Self.defaultConfigurationName { return self }
      let names = [Self.defaultConfigurationName] + configurations.map(\.name)
      throw SiftError.model(
        CoreDataModelError(
          file: file, element: "configuration",
          message: "no configuration '\(name)' in the model (it has: \(names.joined(separator: ", ")))"))
    }
    var keep = Set<String>()
    for member in config.entities {
      guard entity(member) != nil else {
        throw SiftError.model(
          CoreDataModelError(
            file: file, line: config.line, element: "configuration",
            message: "configuration '\(name)' names entity '\(member)', which the model does not define"))
      }
      for e in lineage(of: member) { keep.insert(e.name) }
    }
    var notes = warnings
    var kept: [CoreDataEntity] = []
    for var e in entities where keep.contains(e.name) {
      e.relationships = e.relationships.filter { r in
        let inside = keep.contains(r.destination) && (r.inverseEntity.map { keep.contains($0) } ?? true)
        if !inside {
          notes.append(
            "relationship \(e.name).\(r.name) leads to \(r.destination), outside configuration '\(name)'; left out")
        }
        return inside
      }
      kept.append(e)
    }
    do throws(CoreDataModelError) {
      var out = try CoreDataModel(
        checking: kept, fetchRequests: fetchRequests.filter { keep.contains($0.entity) }, file: file,
        versionName: versionName)
      out.warnings = notes
      out.configurations = [config]
      return out
    } catch {
      throw SiftError.model(error)
    }
  }
}
