import Synchronization

/// A disposable that owns a group of children and disposes all of them, once, when it is disposed.
///
/// - Adding returns a ``Handle``; disposing the handle removes the child *without* disposing it
///   (RAC's `removeDisposable:`, ReactiveSwift's add-handle). RxSwift's `remove(for:)` disposes what
///   it removes; here call `handle.dispose()` and then `child.dispose()` for that.
/// - Adding to an already-disposed composite disposes the child at once (on the calling thread) and
///   returns a handle that does nothing.
/// - `nil` children and children that are already disposed are ignored.
/// - Children are disposed outside the lock, on the thread that disposes the composite, in the order
///   they were added. A child may therefore add to or dispose the composite re-entrantly.
/// - The first two children are stored inline, as RAC does, so small composites allocate nothing more.
public final class CompositeDisposable: Disposable {
  /// Removes one child from its composite without disposing the child. Copying it is free.
  public struct Handle: Disposable {
    fileprivate let composite: CompositeDisposable?
    fileprivate let key: UInt64

    /// Removes the child from the composite (if still there); never disposes the child.
    public func dispose() { composite?.remove(key) }

    /// Whether the child is no longer held by the composite (removed, or the composite disposed).
    public var isDisposed: Bool { composite?.contains(key) != true }
  }

  private typealias Entry = (key: UInt64, disposable: any Disposable)

  private struct State {
    var disposed = false
    var nextKey: UInt64 = 0
    var first: Entry?
    var second: Entry?
    var overflow: [Entry] = []
    var count: Int { (first == nil ? 0 : 1) + (second == nil ? 0 : 1) + overflow.count }
  }

  private let state = Mutex(State())

  /// Creates an empty composite.
  public init() {}

  /// Creates a composite holding `disposables`; `nil` and already-disposed ones are skipped.
  public init(_ disposables: [(any Disposable)?]) {
    for disposable in disposables { add(disposable) }
  }

  /// Whether the composite has been disposed.
  public var isDisposed: Bool { state.withCriticalRegion { $0.disposed } }

  /// The number of children currently held.
  public var count: Int { state.withCriticalRegion { $0.count } }

  /// Adds `disposable`, or disposes it at once when the composite is already disposed.
  ///
  /// Returns a handle that removes the child again without disposing it. `nil` and already-disposed
  /// children are ignored (the returned handle does nothing).
  @discardableResult
  public func add(_ disposable: (any Disposable)?) -> Handle {
    guard let disposable, !disposable.isDisposed else { return Handle(composite: nil, key: 0) }
    let key: UInt64? = state.withCriticalRegion { state in
      guard !state.disposed else { return nil }
      let key = state.nextKey
      state.nextKey += 1
      if state.first == nil {
        state.first = (key, disposable)
      } else if state.second == nil {
        state.second = (key, disposable)
      } else {
        state.overflow.append((key, disposable))
      }
      return key
    }
    guard let key else {
      disposable.dispose()
      return Handle(composite: nil, key: 0)
    }
    return Handle(composite: self, key: key)
  }

  /// Adds an action to run when the composite is disposed (at once if it already is).
  @discardableResult
  public func add(_ action: @escaping @Sendable () -> Void) -> Handle {
    add(AnyDisposable(action))
  }

  /// Disposes every child once, outside the lock, in the order they were added.
  public func dispose() {
    let children: [Entry]? = state.withCriticalRegion { state in
      guard !state.disposed else { return nil }
      state.disposed = true
      var all: [Entry] = []
      all.reserveCapacity(state.count)
      if let first = state.first { all.append(first) }
      if let second = state.second { all.append(second) }
      all.append(contentsOf: state.overflow)
      state.first = nil
      state.second = nil
      state.overflow = []
      return all.sorted { $0.key < $1.key }
    }
    for child in children ?? [] { child.disposable.dispose() }
  }

  /// Removes the child of `handle` without disposing it; returns whether it was still there (the Rx
  /// bridge disposes a child it removes only then, so a child is disposed once).
  package func remove(_ handle: Handle) -> Bool {
    guard handle.composite === self else { return false }
    return remove(handle.key)
  }

  @discardableResult
  private func remove(_ key: UInt64) -> Bool {
    let removed: (any Disposable)? = state.withCriticalRegion { state in
      if state.first?.key == key {
        defer { state.first = nil }
        return state.first?.disposable
      }
      if state.second?.key == key {
        defer { state.second = nil }
        return state.second?.disposable
      }
      guard let index = state.overflow.firstIndex(where: { $0.key == key }) else { return nil }
      return state.overflow.remove(at: index).disposable
    }
    // Released here, outside the lock.
    return removed != nil
  }

  private func contains(_ key: UInt64) -> Bool {
    state.withCriticalRegion { state in
      state.first?.key == key || state.second?.key == key || state.overflow.contains { $0.key == key }
    }
  }
}
