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
  typealias Fail = @convention(thin) (String, StaticString, UInt) -> Void

  /// `XCTFail(_:file:line:)`, if XCTest is loaded.
  static var fail: Fail? {
    dlsym(dlopen(nil, RTLD_NOW), "$s6XCTest7XCTFail_4file4lineySS_s12StaticStringVSutF").map {
      unsafeBitCast($0, to: Fail.self)
    }
  }
}
