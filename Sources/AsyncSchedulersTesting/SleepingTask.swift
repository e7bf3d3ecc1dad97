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
      if MemoryLayout<UnsafeCurrentTask>.size != MemoryLayout<UnsafeMutableRawPointer>.size {
        fatalError("UnsafeCurrentTask is expected to be one reference")
      }
      return SleepingTask(task: unsafeBitCast(task, to: UnsafeMutableRawPointer.self))
    }
  }

  package var isCancelled: Bool { unsafeBitCast(task, to: UnsafeCurrentTask.self).isCancelled }

  /// Cancels the task (from any thread).
  package func cancel() { unsafeBitCast(task, to: UnsafeCurrentTask.self).cancel() }

  /// The task's address (the runtime's task is a job: the address of its job too).
  var address: UnsafeMutableRawPointer { task }
}
