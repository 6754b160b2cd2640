import SiftSyntax

/// Turns a catalog into entities: chooses names, finds join tables, leaves out (and reports)
/// colliding members. The naming rules are documented on `SQLSchemaReader`.
struct IntrospectedSchemaBuilder {
  var catalog: IntrospectedCatalog

  /// A relationship that may yet be left out for its name.
  private struct Candidate {
    var relationship: SQLRelationship
    /// The table whose columns it is made from, and those columns (for messages).
    var table: String
    var columns: [String]
    /// `to-one of note.category_id`, `inverse of message.sender_id`, …
    var origin: String
  }

  /// A to-one's name: the column less a trailing `_id`, `Id`, `ID` (after a lower-case
  /// letter) or `_ID`; whole when nothing trails or nothing would be left.
  static func toOneName(_ column: String) -> String {
    for suffix in ["_id", "_ID", "Id"] where column.hasSuffix(suffix) && column.count > suffix.count {
      return String(column.dropLast(suffix.count))
    }
    if column.hasSuffix("ID"), column.count > 2, let c = column.dropLast(2).last, c.isLowercase {
      return String(column.dropLast(2))
    }
    return column
  }

  static func usable(_ name: String) -> Bool {
    !name.isEmpty && !name.hasPrefix("__sift")
      && !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
  }

  func build() throws -> SQLIntrospection {
    var warnings = catalog.warnings
    // 1. Tables and columns whose names Sift can use, and the columns with a type.
    var tables: [IntrospectedTable] = []
    for var t in catalog.tables {
      guard IntrospectedSchemaBuilder.usable(t.name) else {
        warnings.append(
          SQLIntrospectionWarning(
            kind: .unusableName, table: t.name, columns: [],
            message: "table name is reserved by Sift (__sift…) or has a control character; left out"))
        continue
      }
      for c in t.columns where !IntrospectedSchemaBuilder.usable(c.name) {
        warnings.append(
          SQLIntrospectionWarning(
            kind: .unusableName, table: t.name, columns: [c.name], member: c.name,
            message: "column name is reserved by Sift (__sift…) or has a control character; left out"))
      }
      t.columns = t.columns.filter { $0.type != nil && IntrospectedSchemaBuilder.usable($0.name) }
      guard !t.columns.isEmpty else {
        warnings.append(
          SQLIntrospectionWarning(
            kind: .unsupportedColumn, table: t.name, columns: [],
            message: "no column of a type Sift can compare; table left out"))
        continue
      }
      // Foreign keys in column order (SQLite lists them last-declared first).
      let position = Dictionary(t.columns.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
      t.foreignKeys.sort { a, b in
        let pa = a.columns.first.flatMap { position[$0] } ?? Int.max
        let pb = b.columns.first.flatMap { position[$0] } ?? Int.max
        return pa != pb ? pa < pb : a.targetDescription < b.targetDescription
      }
      tables.append(t)
    }
    let byName = Dictionary(tables.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })

    // 2. Keys: one integer or string column, or none usable.
    var key: [String: String] = [:]
    for t in tables {
      if t.primaryKey.count == 1, let c = t.columns.first(where: { $0.name == t.primaryKey[0] }),
        c.type == .integer || c.type == .string
      {
        key[t.name] = c.name
      } else if !t.isView {
        let what: String
        if t.primaryKey.count > 1 {
          what = "composite primary key (\(t.primaryKey.joined(separator: ", ")))"
        } else if t.primaryKey.isEmpty {
          what = "no primary key"
        } else {
          what = "a primary key that is neither an integer nor a string"
        }
        warnings.append(
          SQLIntrospectionWarning(
            kind: .noSingleColumnKey, table: t.name, columns: t.primaryKey,
            message: "\(what): usable in predicates on its own columns and to-ones, but no relationship leads "
              + "into it, it has no to-many, and its rows have no single key (batch rows unavailable)"))
      }
    }

    // 3. Foreign keys Sift can follow: one column, to another table's one-column key.
    struct Link {
      var table: String  // referencing
      var column: String
      var target: String
    }
    var links: [String: [Link]] = [:]  // by referencing table
    for t in tables {
      let columnsWithSeveralKeys = Set(
        Dictionary(grouping: t.foreignKeys.filter { $0.columns.count == 1 }, by: { $0.columns[0] })
          .filter { $0.value.count > 1 }.keys)
      for fk in t.foreignKeys {
        func skip(_ kind: SQLIntrospectionWarning.Kind, _ why: String) {
          warnings.append(
            SQLIntrospectionWarning(
              kind: kind, table: t.name, columns: fk.columns,
              message:
                "foreign key (\(fk.columns.joined(separator: ", "))) → \(fk.targetDescription): \(why); no relationship made"
            ))
        }
        guard fk.columns.count == 1 else {
          skip(.compositeForeignKey, "several columns")
          continue
        }
        let column = fk.columns[0]
        guard t.columns.contains(where: { $0.name == column }) else {
          skip(.unsupportedForeignKey, "its column was left out")
          continue
        }
        guard !columnsWithSeveralKeys.contains(column) else {
          skip(.unsupportedForeignKey, "the column carries several foreign keys")
          continue
        }
        guard let targetName = fk.table, byName[targetName] != nil else {
          skip(.unsupportedForeignKey, "the referenced table is not among those read")
          continue
        }
        guard let targetKey = key[targetName] else {
          skip(.unsupportedForeignKey, "\(targetName) has no single-column primary key")
          continue
        }
        guard fk.referencedColumns.isEmpty || fk.referencedColumns == [targetKey] else {
          skip(
            .unsupportedForeignKey,
            "it references \(fk.referencedColumns.joined(separator: ", ")), not the primary key \(targetKey)")
          continue
        }
        links[t.name, default: []].append(Link(table: t.name, column: column, target: targetName))
      }
    }

    // 4. Candidate relationships per entity.
    var candidates: [String: [Candidate]] = [:]
    for t in tables {
      let own = links[t.name] ?? []
      for l in own {
        let rel = SQLRelationship(
          name: IntrospectedSchemaBuilder.toOneName(l.column), target: l.target, kind: .toOne(foreignKey: l.column))
        candidates[t.name, default: []].append(
          Candidate(relationship: rel, table: t.name, columns: [l.column], origin: "to-one of \(t.name).\(l.column)"))
      }
      // A join table: exactly two followable foreign keys, and no other column but its own key.
      let other = Set(t.columns.map(\.name)).subtracting(own.map(\.column))
      let isJoin =
        !t.isView && own.count == 2 && t.foreignKeys.count == 2 && own[0].column != own[1].column
        && (other.isEmpty || (other.count == 1 && t.primaryKey == [other.first!]))
      if isJoin {
        for (a, b) in [(own[0], own[1]), (own[1], own[0])] {
          let rel = SQLRelationship(
            name: b.target, target: b.target,
            kind: .manyToMany(joinTable: t.name, sourceColumn: a.column, targetColumn: b.column))
          candidates[a.target, default: []].append(
            Candidate(
              relationship: rel, table: t.name, columns: [a.column, b.column],
              origin: "many-to-many through \(t.name)(\(a.column), \(b.column))"))
        }
        continue
      }
      for l in own {
        guard key[t.name] != nil else {
          warnings.append(
            SQLIntrospectionWarning(
              kind: .noSingleColumnKey, table: t.name, columns: [l.column], member: t.name, entity: l.target,
              message:
                "no to-many \(l.target).\(t.name) (inverse of \(t.name).\(l.column)): \(t.name) has no single-column primary key"
            ))
          continue
        }
        let rel = SQLRelationship(name: t.name, target: t.name, kind: .toMany(inverseForeignKey: l.column))
        candidates[l.target, default: []].append(
          Candidate(relationship: rel, table: t.name, columns: [l.column], origin: "inverse of \(t.name).\(l.column)"))
      }
    }

    // 5. Entities, leaving out colliding relationships.
    var entities: [SQLEntity] = []
    for t in tables {
      let attributeNames = Set(t.columns.map(\.name))
      var relationships: [SQLRelationship] = []
      let mine = candidates[t.name] ?? []
      var groups: [String: [Candidate]] = [:]
      var order: [String] = []
      for c in mine {
        if groups[c.relationship.name] == nil { order.append(c.relationship.name) }
        groups[c.relationship.name, default: []].append(c)
      }
      for name in order {
        guard let group = groups[name] else { continue }
        if group.count == 1 && !attributeNames.contains(name) {
          relationships.append(group[0].relationship)
          continue
        }
        var clash = group.map(\.origin)
        if attributeNames.contains(name) { clash.insert("the column \(t.name).\(name)", at: 0) }
        let fixes = group.map { "\"\(name)_…\": " + IntrospectedSchemaBuilder.spec($0.relationship) }
        warnings.append(
          SQLIntrospectionWarning(
            kind: .nameCollision, table: t.name, columns: group.flatMap(\.columns), member: name, entity: t.name,
            message: "name collision: \(t.name).\(name) would be " + clash.joined(separator: " and ")
              + "; \(group.count == 1 ? "the relationship was" : "the relationships were") left out — name "
              + "\(group.count == 1 ? "it" : "them") in a schema file's \"relationships\": "
              + fixes.joined(separator: ", ")))
      }
      let indexedColumns = Set(t.indexes.compactMap(\.columns.first)).union(t.primaryKey.prefix(1))
      let attributes = t.columns.map { c in
        SQLAttribute(
          name: c.name, type: c.type ?? .string, indexed: indexedColumns.contains(c.name), nativeType: c.nativeType,
          isNullable: c.isNullable && key[t.name] != c.name, dateEncoding: c.dateEncoding,
          arrayStorage: c.arrayStorage)
      }
      let keyColumns: [String]
      let primaryKey: String
      if let k = key[t.name] {
        keyColumns = [k]
        primaryKey = k
      } else {
        keyColumns = t.primaryKey.filter { attributeNames.contains($0) }
        primaryKey = keyColumns.first ?? t.columns[0].name
      }
      entities.append(
        SQLEntity(
          name: t.name, table: t.name, primaryKey: primaryKey, attributes: attributes, relationships: relationships,
          primaryKeyColumns: keyColumns, isView: t.isView, indexes: t.indexes))
    }
    let schema = try SQLSchema(entities: entities, dateEncoding: .unixSeconds, layout: .existing)
    return SQLIntrospection(schema: schema, warnings: warnings)
  }

  /// A relationship as a schema file spells it.
  static func spec(_ r: SQLRelationship) -> String {
    let value: SiftValue
    switch r.kind {
    case .toOne(let fk): value = ["toOne": .string(r.target), "foreignKey": .string(fk)]
    case .toMany(let fk): value = ["toMany": .string(r.target), "inverseForeignKey": .string(fk)]
    case .manyToMany(let join, let s, let d):
      value = [
        "toMany": .string(r.target), "joinTable": .string(join), "sourceColumn": .string(s), "targetColumn": .string(d),
      ]
    }
    return SiftJSON.serialize(value)
  }
}
