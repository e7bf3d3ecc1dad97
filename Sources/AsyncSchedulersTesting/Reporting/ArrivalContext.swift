#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Who is handing work to a ``TestScheduler``: the identity of the calling task, or of the calling
/// thread when no task is running. Used to tell the test's own code from work that escaped.
///
/// A task is identified by its address, which is only compared, never dereferenced: a task that ended
/// could in principle share its address with a later one, which is harmless here (the later task would
/// be taken for the test's own code).
package enum ArrivalContext: Hashable, Sendable {
  /// Code running in the task at this address.
  case task(UInt)
  /// Code running outside any task, on the thread with this identity.
  case thread(UInt)

  /// The calling context.
  package static var current: ArrivalContext {
    if let task = TaskIdentity.currentTaskAddress() { return .task(task) }
    return .thread(currentThreadIdentity)
  }

  private static var currentThreadIdentity: UInt {
    #if canImport(Darwin)
      UInt(bitPattern: pthread_self())
    #else
      UInt(pthread_self())
    #endif
  }

  /// A description of where the calling code runs, for failure messages: whether it is in a task, the
  /// task's priority and cancellation, and the thread's name when the platform gives one. `hopping`
  /// when the work is a task's job: the runtime enqueues the job of a task hopping onto the scheduler
  /// after the task has left its thread, so no task is current then.
  package static func describeCurrent(hopping: Bool = false) -> String {
    var parts: [String] = []
    let task = withUnsafeCurrentTask { task -> String? in
      guard let task else { return nil }
      return "a task not running on this scheduler (priority \(task.priority.rawValue)"
        + (task.isCancelled ? ", cancelled)" : ")")
    }
    let outside =
      hopping
      ? "a task hopping onto the scheduler from another executor (an unstructured or detached task, a default "
        + "actor, a continuation resumed by another thread) or started by code outside any task"
      : "a thread outside any task (a Dispatch queue, a real timer or another thread's callback)"
    parts.append(task ?? outside)
    if let name = currentThreadName, !name.isEmpty { parts.append("on thread \"\(name)\"") }
    return parts.joined(separator: " ")
  }

  private static var currentThreadName: String? {
    #if canImport(Darwin)
      var buffer = [CChar](repeating: 0, count: 64)
      guard pthread_getname_np(pthread_self(), &buffer, buffer.count) == 0 else { return nil }
      return String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
    #else
      guard let getName = RuntimeSymbols.getThreadName else { return nil }
      var buffer = [CChar](repeating: 0, count: 64)
      guard getName(pthread_self(), &buffer, buffer.count) == 0 else { return nil }
      return String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
    #endif
  }
}
