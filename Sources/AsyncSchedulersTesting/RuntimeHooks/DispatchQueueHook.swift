/// Placeholder; see the next commit.
enum DispatchQueueHook {
  static var isAvailable: Bool { false }
  static func install() {}
  static func uninstall() {}
}
