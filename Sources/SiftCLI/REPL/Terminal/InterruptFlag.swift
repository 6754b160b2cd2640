import Dispatch
import Foundation

/// A thread-safe "Ctrl-C was pressed" flag. `installSIGINTHandler()` routes SIGINT to it via a
/// dispatch signal source (so nothing runs in signal context) instead of killing the process.
///
/// ```swift
/// let flag = InterruptFlag()
/// flag.installSIGINTHandler()
/// for r in records { if flag.isSet { break } … }
/// ```
final class InterruptFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  private var source: DispatchSourceSignal?

  /// True once `set()` was called (or SIGINT arrived) and until `clear()`.
  var isSet: Bool {
    lock.lock()
    defer { lock.unlock() }
    return value
  }

  /// Raises the flag.
  func set() {
    lock.lock()
    value = true
    lock.unlock()
  }

  /// Lowers the flag.
  func clear() {
    lock.lock()
    value = false
    lock.unlock()
  }

  /// Ignores SIGINT's default action and raises this flag on each SIGINT instead.
  func installSIGINTHandler() {
    // A parent may have left SIGINT blocked; the dispatch source needs it delivered.
    var unblock = sigset_t()
    sigemptyset(&unblock)
    sigaddset(&unblock, SIGINT)
    pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    signal(SIGINT, SIG_IGN)
    let s = DispatchSource.makeSignalSource(signal: SIGINT, queue: DispatchQueue.global())
    s.setEventHandler { [weak self] in self?.set() }
    s.resume()
    source = s
  }
}
