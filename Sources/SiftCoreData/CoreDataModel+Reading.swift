import Foundation
import SiftSyntax

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
    warnings = reader.warnings
    configurations = reader.configurations
    // A derivation Sift cannot compute still has its column: read, with a warning now rather
    // than an error when memory is asked for its value.
    for e in entities {
      for a in e.attributes where a.isDerived {
        var named = a
        named.name = "\(e.name).\(a.name)"
        do throws(SiftError) { _ = try named.derivation() } catch {
          let at = a.line.map { ":\($0)" } ?? ""
          warnings.append(
            "\(file)\(at): \(error.diagnostic.message); its column is read, memory cannot compute it")
        }
      }
    }
  }
}
