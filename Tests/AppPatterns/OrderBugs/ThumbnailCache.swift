// App code as a team writes it: no import of swift-async-schedulers.

/// Where thumbnails come from: a store on its own actor (a disk cache, a database).
public actor ThumbnailStore {
  public private(set) var loads = 0
  public init() {}
  public func load(_ key: String) -> String {
    loads += 1
    return "thumbnail of \(key)"
  }
}

/// Order bug: the cache is checked, then filled after an `await`, so two callers that both miss before
/// the first fill load the same thumbnail twice (actor reentrancy).
public actor ThumbnailCache {
  private var thumbnails: [String: String] = [:]
  private let store: ThumbnailStore
  public init(store: ThumbnailStore) { self.store = store }

  public func thumbnail(_ key: String) async -> String {
    if let cached = thumbnails[key] { return cached }
    let loaded = await store.load(key)
    thumbnails[key] = loaded
    return loaded
  }
}

/// The fix: a miss stores the load in flight, so a second caller awaits the same load.
public actor DeduplicatingThumbnailCache {
  private var thumbnails: [String: Task<String, Never>] = [:]
  private let store: ThumbnailStore
  public init(store: ThumbnailStore) { self.store = store }

  public func thumbnail(_ key: String) async -> String {
    if let inFlight = thumbnails[key] { return await inFlight.value }
    let load = Task { [store] in await store.load(key) }
    thumbnails[key] = load
    return await load.value
  }
}
