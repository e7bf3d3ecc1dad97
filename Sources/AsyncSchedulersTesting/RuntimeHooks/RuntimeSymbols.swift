#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Functions found at run time in the loaded images (`dlsym`): the runtime's, the C library's and
/// XCTest's. Nothing else in the module calls `dlsym`.
enum RuntimeSymbols {
  /// The address of `symbol` in the loaded images, if one exports it.
  static func address(of symbol: String) -> UnsafeMutableRawPointer? { dlsym(dlopen(nil, RTLD_NOW), symbol) }

  /// XCTest's `XCTFail(_:file:line:)`, when XCTest is loaded (looked up by its mangled name).
  typealias XCTFail = @convention(thin) (String, StaticString, UInt) -> Void
  static var xctFail: XCTFail? {
    address(of: "$s6XCTest7XCTFail_4file4lineySS_s12StaticStringVSutF").map { unsafeBitCast($0, to: XCTFail.self) }
  }

  #if !canImport(Darwin)
    /// `pthread_getname_np`: the C library has it, the `Glibc` module does not declare it (a GNU
    /// extension).
    typealias GetThreadName = @convention(c) (pthread_t, UnsafeMutablePointer<CChar>?, Int) -> Int32
    static let getThreadName: GetThreadName? = address(of: "pthread_getname_np").map {
      unsafeBitCast($0, to: GetThreadName.self)
    }
  #endif
}

/// Looks up a function the Swift runtime exports, as a thin function of type `Function`.
func runtimeFunction<Function>(_ symbol: String, as type: Function.Type) -> Function? {
  RuntimeSymbols.address(of: symbol).map { unsafeBitCast($0, to: Function.self) }
}
