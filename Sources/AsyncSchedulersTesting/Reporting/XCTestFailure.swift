import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// XCTest's `XCTFail`, found at run time when XCTest is loaded (an XCTest run), so a failure this module
/// reports fails the running XCTest test without this module linking XCTest.
///
/// Looked up by its mangled name in the loaded images (`dlsym`); `nil` when XCTest is not loaded or
/// names it differently (then the report is printed, see `reportIssue`). `XCTFail` with no XCTest test
/// running does nothing, which is why the report is printed as well.
enum XCTestFailure {
  /// `XCTFail(_:file:line:)`, if XCTest is loaded.
  static var fail: RuntimeSymbols.XCTFail? { RuntimeSymbols.xctFail }

  /// Fails the running XCTest test with `message` at `filePath`:`line` (XCTest shows that location, as
  /// for its own assertions); `false` when XCTest is not loaded.
  static func fail(_ message: String, filePath: String, line: Int) -> Bool {
    guard let fail else { return false }
    fail(message, staticString(filePath), UInt(clamping: line))
    return true
  }

  /// The bytes of every path handed to XCTest so far, kept for the rest of the process (a
  /// `StaticString` must point at storage that never goes away; one copy per distinct path).
  private static let paths = Mutex<[String: UnsafeMutableBufferPointer<UInt8>]>([:])

  /// A `StaticString` for `path`: XCTest's `file:` parameter takes nothing else.
  ///
  /// A `StaticString` is a frozen struct (the start of its UTF-8 bytes, their count, and flags whose bit
  /// 0 is clear for a pointer representation and bit 1 set for ASCII text); this builds one over a
  /// copy of `path` that lives for the rest of the process.
  static func staticString(_ path: String) -> StaticString {
    let bytes = paths.withLock { paths -> UnsafeMutableBufferPointer<UInt8> in
      if let bytes = paths[path] { return bytes }
      let utf8 = Array(path.utf8)
      let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: utf8.count + 1)
      _ = bytes.initialize(from: utf8 + [0])
      paths[path] = bytes
      return bytes
    }
    let layout = StaticStringLayout(
      start: UnsafeRawPointer(bytes.baseAddress!), utf8CodeUnitCount: bytes.count - 1,
      flags: path.utf8.allSatisfy { $0 < 0x80 } ? 0x2 : 0x0)
    guard MemoryLayout<StaticStringLayout>.size == MemoryLayout<StaticString>.size else { return "" }
    return unsafeBitCast(layout, to: StaticString.self)
  }
}

/// `StaticString`'s stored properties, in order (see `XCTestFailure.staticString(_:)`).
private struct StaticStringLayout {
  var start: UnsafeRawPointer
  var utf8CodeUnitCount: Int
  var flags: UInt8
}
