import AsyncSchedulers

/// A retained reference to a task, taken from inside it, to ask later whether it was cancelled.
///
/// `UnsafeCurrentTask` may not outlive the code it was handed to, because it does not own the task.
/// This wrapper retains the task object (a reference-counted runtime object) for as long as it
/// lives, so reading the task's cancellation later is safe.
package final class SleepingTask: @unchecked Sendable {
  // Why @unchecked Sendable: `task` is immutable and retained; `isCancelled` is a thread-safe read.
  private let task: UnsafeMutableRawPointer

  private init(task: UnsafeMutableRawPointer) {
    self.task = task
    _ = Unmanaged<AnyObject>.fromOpaque(task).retain()
  }

  deinit { Unmanaged<AnyObject>.fromOpaque(task).release() }

  /// The task running the calling code, or `nil` outside a task.
  package static func current() -> SleepingTask? {
    withUnsafeCurrentTask { task in
      guard let task else { return nil }
      return SleepingTask(task: UnsafeMutableRawPointer(bitPattern: TaskIdentity.address(of: task))!)
    }
  }

  package var isCancelled: Bool { TaskIdentity.task(at: task).isCancelled }

  /// Cancels the task (from any thread).
  package func cancel() { TaskIdentity.task(at: task).cancel() }

  /// The task's address (the runtime's task is a job: the address of its job too).
  var address: UnsafeMutableRawPointer { task }
}
