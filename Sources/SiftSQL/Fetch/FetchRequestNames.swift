import SiftSyntax

/// The fetch request moved to SiftSyntax as `SiftFetchRequest`, where in-memory evaluation
/// sees it too; this name keeps existing SiftSQL callers compiling.
///
/// ```swift
/// let request: FetchRequest = SiftFetchRequest(entity: "Venue", resultType: .count)
/// ```
public typealias FetchRequest = SiftFetchRequest

/// The sort descriptor moved to SiftSyntax as `SiftSortDescriptor`.
///
/// ```swift
/// let sort: SQLSortDescriptor = SiftSortDescriptor("name")
/// ```
public typealias SQLSortDescriptor = SiftSortDescriptor

/// The aggregate moved to SiftSyntax as `SiftAggregate`.
///
/// ```swift
/// let sum: SQLAggregate = SiftAggregate(.sum, "price")
/// ```
public typealias SQLAggregate = SiftAggregate
