import SiftSyntax

/// Reads an `SQLSchema` from a database Sift did not create: each table and view becomes an
/// entity, each column an attribute, each single-column foreign key a to-one relationship and
/// its inverse to-many, each join table a many-to-many on both sides. Only catalog queries
/// run (values bound, identifiers quoted), plus bounded samples of date and JSON columns to
/// read their encoding; nothing is created or changed.
///
/// Names: an entity is its table's name, an attribute its column's. A to-one is its
/// foreign-key column's name less a trailing `_id`, `Id` or `ID` (`author_id`, `authorId`,
/// `authorID` → `author`; `ID` only after a lower-case letter, and a name that would become
/// empty stays whole: `owner` → `owner`). The inverse to-many on the referenced entity is the
/// referencing table's name; a many-to-many is the other table's name. Where two members of an
/// entity would share a name (two foreign keys to one table give the same inverse; a to-one
/// kept whole equals its column), the derived members are left out and each is reported as a
/// `nameCollision` warning naming the table and columns, so a schema file can name them
/// (`SQLSchema.merging(json:)`). Attributes always keep their names.
///
/// A join table is a table whose columns are exactly two single-column foreign keys (plus,
/// optionally, its own one-column primary key). It stays an entity (with its two to-ones);
/// the tables it joins get a many-to-many each instead of a to-many into it.
///
/// Keys: an entity with a one-column integer or string primary key works everywhere. A
/// composite key, a table without a key, and every view give an entity that predicates can
/// filter on (attributes and its own to-ones), but that no relationship may target, that has
/// no to-many, and whose rows have no single key (`SQLEntity.hasSingleColumnKey` is false);
/// each such table is reported (`noSingleColumnKey`), views are not.
///
/// ```swift
/// let result = try SQLSchemaReader.sqlite.read(from: db)
/// for w in result.warnings { print(w) }   // note: message.sender_id and message.recipient_id …
/// let compiler = SQLCompiler(dialect: SQLiteDialect(), schema: result.schema)
/// ```
public struct SQLSchemaReader: Sendable, Hashable {
  /// Which catalog to read.
  public enum Source: Sendable, Hashable {
    /// The `main` database of an SQLite connection.
    case sqlite
    /// One schema (namespace) of a PostgreSQL database.
    case postgres(schema: String)
    /// One database (schema) of a MySQL or MariaDB server.
    case mysql(database: String)
  }

  /// Which catalog to read.
  public var source: Source
  /// At most this many non-null values per date or JSON column are read to tell its encoding.
  public var sampleLimit: Int

  /// Creates a reader.
  public init(source: Source, sampleLimit: Int = 1000) {
    self.source = source
    self.sampleLimit = sampleLimit
  }

  /// A reader for an SQLite connection.
  public static let sqlite = SQLSchemaReader(source: .sqlite)

  /// A reader for PostgreSQL schema `schema` (default `public`).
  public static func postgres(schema: String = "public") -> SQLSchemaReader {
    SQLSchemaReader(source: .postgres(schema: schema))
  }

  /// A reader for MySQL/MariaDB database `database`.
  public static func mysql(database: String) -> SQLSchemaReader {
    SQLSchemaReader(source: .mysql(database: database))
  }

  /// The to-one name for a foreign-key column (the rule above).
  ///
  /// ```swift
  /// SQLSchemaReader.toOneName("author_id")   // "author"
  /// SQLSchemaReader.toOneName("owner")       // "owner"
  /// ```
  public static func toOneName(_ column: String) -> String { IntrospectedSchemaBuilder.toOneName(column) }

  /// Reads the schema. The result's layout is `.existing`.
  /// - Throws: `SiftError`: the database's; `invalid-schema` if what was read cannot form a
  ///   schema (a bug: names that would be invalid are skipped with a warning).
  public func read(from db: any SQLDatabase) throws(SiftError) -> SQLIntrospection {
    do {
      let catalog: IntrospectedCatalog
      switch source {
      case .sqlite: catalog = try SQLiteCatalogReader(db: db, sampleLimit: sampleLimit).read()
      case .postgres(let schema):
        catalog = try PostgresCatalogReader(db: db, schema: schema, sampleLimit: sampleLimit).read()
      case .mysql(let database): catalog = try MySQLCatalogReader(db: db, database: database).read()
      }
      return try IntrospectedSchemaBuilder(catalog: catalog).build()
    } catch let e as SiftError {
      throw e
    } catch {
      // Every step throws Sift's error already; anything else is kept as `underlying`.
      throw SiftError(stage: .sql, id: .invalidSchema, message: "\(error)", underlying: error)
    }
  }
}

/// A schema read from a database, and what could not be read into it.
///
/// ```swift
/// let result = try db.introspectSchema()
/// result.schema.entityNames   // ["category", "note", "note_tag", "tag"]
/// result.warnings             // [] when every name is unambiguous
/// ```
public struct SQLIntrospection: Sendable, Hashable {
  /// The schema (layout `.existing`).
  public var schema: SQLSchema
  /// What was left out or assumed, in table order.
  public var warnings: [SQLIntrospectionWarning]

  /// Creates a result.
  public init(schema: SQLSchema, warnings: [SQLIntrospectionWarning]) {
    self.schema = schema
    self.warnings = warnings
  }
}

/// Something introspection left out or had to assume, with the table and columns involved.
///
/// ```swift
/// print(warning)   // message: name collision: person.message (inverse of message.sender_id) …
/// ```
public struct SQLIntrospectionWarning: Sendable, Hashable, CustomStringConvertible {
  /// What happened.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// Two derived members (or a derived member and an attribute) would share a name; the
    /// derived one(s) were left out.
    case nameCollision
    /// A column of a type Sift cannot compare (or with no type to read); left out.
    case unsupportedColumn
    /// A foreign key of several columns; no relationship made.
    case compositeForeignKey
    /// A foreign key to something other than a one-column primary key (a unique column, a
    /// composite-key table, a table outside the schema); no relationship made.
    case unsupportedForeignKey
    /// A table with a composite key or none: usable for scalar predicates only.
    case noSingleColumnKey
    /// A date column's encoding could not be read from its values and was assumed.
    case dateEncodingAssumed
    /// A date column's values do not share one encoding (or one text shape); the most common
    /// was chosen, and comparisons with the others would be wrong.
    case mixedDateValues
    /// A table or column whose name Sift reserves or cannot use; left out.
    case unusableName
    /// A Core Data store read without its model (keys inferred from columns), or a part of
    /// its layout left out (SiftCoreData).
    case coreData
    /// A view whose definition no longer compiles (a table or column it reads is gone); left
    /// out, the rest of the database opens.
    case brokenView
  }

  /// What happened.
  public var kind: Kind
  /// The table (or view) concerned.
  public var table: String
  /// The columns concerned.
  public var columns: [String]
  /// The member (attribute or relationship name) left out or assumed, if any; for a
  /// collision, the contested name.
  public var member: String?
  /// The entity the member would have belonged to, if not the table's own.
  public var entity: String?
  /// One line saying what was done and how a schema file can change it.
  public var message: String

  /// Creates a warning.
  public init(
    kind: Kind, table: String, columns: [String], member: String? = nil, entity: String? = nil, message: String
  ) {
    self.kind = kind
    self.table = table
    self.columns = columns
    self.member = member
    self.entity = entity
    self.message = message
  }

  /// `table: message`.
  public var description: String { "\(table): \(message)" }
}
