import Foundation

/// What a client that is not trusted may ask: the keys its predicates, expressions and sorts may
/// name, the operators and constructs it may not use, a predicate ANDed around whatever it
/// writes, and limits on the size of its text and on the cost of running it. One policy for
/// every engine: the check runs on the tree (`check(_:)`, `applying(to:variables:)`); rows and
/// time are enforced where the query runs (memory, SQLite, PostgreSQL).
///
/// The JSON form (`init(json:)`, or `Decodable`):
///
/// ```json
/// {"entity": "note",
///  "keys": ["title", "created_at", "pinned", "tags", "author.display_name", "tag.label"],
///  "sortKeys": ["title", "created_at"],
///  "deny": ["MATCHES", "SUBQUERY", "FUNCTION", "CAST"],
///  "require": "owner_id == $USER",
///  "limits": {"nodes": 200, "depth": 16, "inList": 1000, "stringBytes": 10000,
///             "rows": 1000, "milliseconds": 2000}}
/// ```
///
/// ```swift
/// let policy = try SiftQueryPolicy(json: text)
/// let client = try SiftPredicate(format: filterFromTheRequest)
/// let effective = try policy.applying(to: client, variables: ["USER": 42])
/// // owner_id == 42 AND (client's predicate), or a SiftError (stage .policy) safe to show
/// ```
///
/// A refusal is a `SiftError` at stage `.policy` whose diagnostic id is one of
/// `SiftQueryPolicy.refusalIDs` and whose range points into the client's text.
public struct SiftQueryPolicy: Sendable, Hashable {
  /// Size and cost limits; nil means unlimited.
  ///
  /// ```swift
  /// SiftQueryPolicy.Limits(nodes: 200, depth: 16, rows: 1000, milliseconds: 2000)
  /// ```
  public struct Limits: Sendable, Hashable {
    /// Syntax-tree nodes of the client's predicate (a list constant counts as one; a constant
    /// `MATCHES` pattern as the terms it expands to, `RegexPattern.expandedSize`).
    public var nodes: Int?
    /// Nesting depth of the client's predicate (a leaf comparison's operands are at depth 2).
    public var depth: Int?
    /// Elements of any list constant (`IN {…}`, `%@` bound to an array).
    public var inList: Int?
    /// UTF-8 bytes of any string constant, pattern included.
    public var stringBytes: Int?
    /// Rows a request may return: its limit is lowered to this (and set when it has none).
    public var rows: Int?
    /// Wall-clock time one query may run, in milliseconds (memory: checked while scanning;
    /// SQLite: its progress handler; PostgreSQL: `statement_timeout`; MATCHES in memory and
    /// SQLite reads it while matching one value too).
    public var milliseconds: Int?

    /// Creates limits.
    public init(
      nodes: Int? = nil, depth: Int? = nil, inList: Int? = nil, stringBytes: Int? = nil, rows: Int? = nil,
      milliseconds: Int? = nil
    ) {
      self.nodes = nodes
      self.depth = depth
      self.inList = inList
      self.stringBytes = stringBytes
      self.rows = rows
      self.milliseconds = milliseconds
    }
  }

  /// The entity the policy is for (informational; engines take the request's entity).
  public var entity: String?
  /// Key paths (dotted, without collection operators) the client may name; `"SELF"` allows
  /// the whole record (for records that are plain values).
  public var keys: Set<String>
  /// Key paths the client may sort by; nil means `keys`.
  public var sortKeys: Set<String>?
  /// Refused operators and constructs, by canonical name (see `SiftQueryPolicy.constructNames`).
  public var deny: Set<String>
  /// ANDed around every client predicate; its keys are exempt from `keys`, its free
  /// `$VARIABLES` are supplied by the server when the policy is applied.
  public var require: SiftPredicate?
  /// Size and cost limits.
  public var limits: Limits

  /// Creates a policy. Unknown names in `deny` are refused (a typo must not allow what it meant to deny).
  ///
  /// ```swift
  /// let p = try SiftQueryPolicy(keys: ["title", "tags"], deny: ["MATCHES"],
  ///                             require: try SiftPredicate.parse("owner_id == $USER"))
  /// ```
  public init(
    entity: String? = nil, keys: Set<String>, sortKeys: Set<String>? = nil, deny: Set<String> = [],
    require: SiftPredicate? = nil, limits: Limits = Limits()
  ) throws(SiftError) {
    self.entity = entity
    self.keys = keys
    self.sortKeys = sortKeys
    var names: Set<String> = []
    for name in deny {
      guard let canonical = SiftQueryPolicy.canonicalConstruct(name) else {
        throw SiftQueryPolicy.invalid(
          "unknown name '\(name)' in deny (known: \(SiftQueryPolicy.constructNames.joined(separator: ", ")))")
      }
      names.insert(canonical)
    }
    self.deny = names
    self.require = require
    self.limits = limits
  }

  /// Reads the JSON form (see the type's documentation).
  ///
  /// ```swift
  /// let p = try SiftQueryPolicy(json: #"{"keys": ["title"], "limits": {"rows": 100}}"#)
  /// ```
  /// - Throws: `SiftError` (stage `.policy`, id `invalid-policy`) naming the bad field, or
  ///   the parse error of `require`.
  public init(json: String) throws(SiftError) {
    let value: SiftValue
    do {
      value = try SiftJSON.parse(json)
    } catch {
      throw SiftQueryPolicy.invalid("the policy is not valid JSON: \(error)")
    }
    try self.init(jsonValue: value)
  }

  /// Reads the JSON form from an already parsed value.
  public init(jsonValue value: SiftValue) throws(SiftError) {
    guard case .dictionary(let d) = value else { throw SiftQueryPolicy.invalid("the policy must be a JSON object") }
    let known: Set<String> = ["entity", "keys", "sortKeys", "deny", "require", "limits"]
    if let extra = d.keys.sorted().first(where: { !known.contains($0) }) {
      throw SiftQueryPolicy.invalid("unknown field '\(extra)' (fields: \(known.sorted().joined(separator: ", ")))")
    }
    func strings(_ field: String) throws(SiftError) -> [String]? {
      guard let v = d[field], !v.isNull else { return nil }
      guard case .array(let items) = v else { throw SiftQueryPolicy.invalid("'\(field)' must be an array of strings") }
      var out: [String] = []
      for item in items {
        guard case .string(let s) = item else {
          throw SiftQueryPolicy.invalid("'\(field)' must be an array of strings")
        }
        out.append(s)
      }
      return out
    }
    var entity: String?
    if let e = d["entity"], !e.isNull {
      guard case .string(let s) = e else { throw SiftQueryPolicy.invalid("'entity' must be a string") }
      entity = s
    }
    guard let keys = try strings("keys") else {
      throw SiftQueryPolicy.invalid("'keys' is required: the key paths clients may name")
    }
    var require: SiftPredicate?
    if let r = d["require"], !r.isNull {
      guard case .string(let text) = r else {
        throw SiftQueryPolicy.invalid("'require' must be a predicate format string")
      }
      do {
        require = try SiftPredicate.parse(text)
      } catch {
        throw SiftError(stage: .policy, diagnostic: error.diagnostic, source: error.source)
      }
      if require?.unboundArgumentCount != 0 {
        throw SiftQueryPolicy.invalid("'require' must not contain format specifiers such as %@; use $VARIABLES")
      }
    }
    var limits = Limits()
    if let l = d["limits"], !l.isNull {
      guard case .dictionary(let ld) = l else { throw SiftQueryPolicy.invalid("'limits' must be an object") }
      let fields: [(String, WritableKeyPath<Limits, Int?>)] = [
        ("nodes", \.nodes), ("depth", \.depth), ("inList", \.inList), ("stringBytes", \.stringBytes),
        ("rows", \.rows), ("milliseconds", \.milliseconds),
      ]
      if let extra = ld.keys.sorted().first(where: { k in !fields.contains { $0.0 == k } }) {
        throw SiftQueryPolicy.invalid("unknown limit '\(extra)' (limits: \(fields.map(\.0).joined(separator: ", ")))")
      }
      for (name, path) in fields {
        guard let v = ld[name], !v.isNull else { continue }
        guard case .int(let n) = v, n >= 0, n <= Int64(Int32.max) else {
          throw SiftQueryPolicy.invalid("limit '\(name)' must be a whole number ≥ 0")
        }
        limits[keyPath: path] = Int(n)
      }
    }
    try self.init(
      entity: entity, keys: Set(keys), sortKeys: try strings("sortKeys").map(Set.init),
      deny: Set(try strings("deny") ?? []),
      require: require, limits: limits)
  }

  /// Every refusal id the check and the engines report, stable for clients to match on.
  ///
  /// ```swift
  /// SiftQueryPolicy.refusalIDs.contains("key-not-allowed")   // true
  /// ```
  public static let refusalIDs: [String] = [
    DiagnosticID.keyNotAllowed, .sortKeyNotAllowed, .operatorNotAllowed, .variableNotAllowed, .unboundArgument,
    .tooManyNodes, .tooDeep, .listTooLong, .stringTooLong, .timeLimit,
  ].map(\.rawValue)

  static func invalid(_ message: String) -> SiftError {
    SiftError(
      stage: .policy, diagnostic: SiftDiagnostic(id: .invalidPolicy, message: message, range: .at(0)), source: "")
  }
}

extension SiftQueryPolicy: Decodable {
  /// Decodes the JSON form through any `Decoder` (the same fields and checks as `init(json:)`).
  ///
  /// ```swift
  /// let p = try JSONDecoder().decode(SiftQueryPolicy.self, from: data)
  /// ```
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let limits = try c.decodeIfPresent(DecodedLimits.self, forKey: .limits)
    var require: SiftPredicate?
    if let text = try c.decodeIfPresent(String.self, forKey: .require) {
      require = try SiftPredicate.parse(text)
    }
    try self.init(
      entity: try c.decodeIfPresent(String.self, forKey: .entity),
      keys: Set(try c.decode([String].self, forKey: .keys)),
      sortKeys: try c.decodeIfPresent([String].self, forKey: .sortKeys).map(Set.init),
      deny: Set(try c.decodeIfPresent([String].self, forKey: .deny) ?? []), require: require,
      limits: Limits(
        nodes: limits?.nodes, depth: limits?.depth, inList: limits?.inList, stringBytes: limits?.stringBytes,
        rows: limits?.rows, milliseconds: limits?.milliseconds))
  }

  enum CodingKeys: String, CodingKey { case entity, keys, sortKeys, deny, require, limits }

  struct DecodedLimits: Decodable {
    var nodes, depth, inList, stringBytes, rows, milliseconds: Int?
  }
}
