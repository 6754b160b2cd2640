import Foundation
import SiftSyntax
import Testing

@testable import SiftEvaluation

/// Collects values reported from another task.
final class Reports<T: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [T] = []
  func add(_ item: T) { lock.lock(); items.append(item); lock.unlock() }
  var all: [T] { lock.lock(); defer { lock.unlock() }; return items }
}

/// `executeAsync`: the same answers as `execute`, progress after every chunk, and cancellation
/// at the next chunk — checked deterministically by cancelling from inside the task.
@Suite struct FetchAsyncTests {
  static let records: [SiftValue] = (0..<10).map { i in ["n": .int(Int64(i)), "odd": .bool(i % 2 == 1)] }
  static let request = SiftFetchRequest(
    entity: "R", predicate: try? SiftPredicate(format: "odd == YES OR n == 4"),
    sortDescriptors: [SiftSortDescriptor("n", ascending: false)], limit: 4)

  @Test func sameAnswerWithProgressAfterEveryChunk() async throws {
    let reports = Reports<SiftFetchProgress>()
    let result = try await Self.request.executeAsync(on: Self.records, progressInterval: 3) { reports.add($0) }
    #expect(result == (try Self.request.execute(on: Self.records)))
    #expect(result == .indices([9, 7, 5, 4]))
    #expect(reports.all.map(\.scanned) == [3, 6, 9, 10])
    #expect(reports.all.map(\.matched) == [1, 4, 5, 6])  // 1; 3, 4, 5; 7; 9
    #expect(reports.all.last?.fractionCompleted == 1)
    let objects = try JSONRecords.records(from: .array(Self.records))
    #expect(try await Self.request.executeAsync(on: objects, progressInterval: 4) == result)
  }

  @Test func cancellingStopsAtTheNextChunk() async throws {
    let reports = Reports<SiftFetchProgress>()
    let task = Task { () async throws(SiftError) -> SiftFetchResult in
      try await Self.request.executeAsync(on: Self.records, progressInterval: 3) { p in
        reports.add(p)
        withUnsafeCurrentTask { $0?.cancel() }  // the user cancels after the first chunk
      }
    }
    let outcome = await task.result
    guard case .failure(let failure) = outcome, let e = failure as? SiftError else {
      Issue.record("not cancelled: \(outcome)"); return
    }
    #expect(e.diagnostic.id == "cancelled")
    #expect(reports.all.map(\.scanned) == [3])
  }

  @Test func aCancelledTaskScansNothing() async throws {
    let reports = Reports<SiftFetchProgress>()
    let task = Task { () async throws(SiftError) -> SiftFetchResult in
      withUnsafeCurrentTask { $0?.cancel() }
      return try await Self.request.executeAsync(on: Self.records) { reports.add($0) }
    }
    guard case .failure(let failure) = await task.result, let e = failure as? SiftError else {
      Issue.record("not cancelled"); return
    }
    #expect(e.diagnostic.id == "cancelled" && e.stage == .evaluate)
    #expect(reports.all.isEmpty)
  }

  @Test func errorsNameTheRecordCountedFromTheStart() async throws {
    var records = Self.records
    records[7] = ["n": "seven"]
    let r = SiftFetchRequest(entity: "R", predicate: try SiftPredicate(format: "n + 1 > 3"))
    let sync = try #require(throws: SiftError.self) { try r.execute(on: records) }
    do {
      _ = try await r.executeAsync(on: records, progressInterval: 3)
      Issue.record("no error")
    } catch {
      #expect(error.diagnostic.notes == sync.diagnostic.notes)
      #expect(error.diagnostic.notes.contains { $0.message == "while evaluating record 7" })
    }
  }
}
