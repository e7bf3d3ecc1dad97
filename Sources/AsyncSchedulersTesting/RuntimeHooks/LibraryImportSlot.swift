import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One imported function's slot in the Swift concurrency library's global offset table: the address
/// its calls through the procedure linkage table jump to. A hook stores its own function there while
/// capturing scopes run and puts back the saved address when the last one ends.
///
/// Found from the loaded library's ELF dynamic section (the `JUMP_SLOT` relocation naming the
/// function, or its `GLOB_DAT` one when the library loads the function's address before calling it). Linux only: elsewhere (Darwin is not ELF), or when the library imports the function
/// under another name, there is no slot and the hook does nothing.
final class LibraryImportSlot: Sendable {
  /// The slot, if found.
  private let slot: Slot
  /// The address the slot held before ``redirect(to:)`` (0 while not redirected).
  private let saved = Mutex<UInt>(0)

  /// The slot of `symbol`, imported by the library that exports `anchor` (by default `swift_get_time`:
  /// the Swift concurrency library).
  init(importing symbol: String, inLibraryExporting anchor: String = "swift_get_time") {
    slot = Self.findSlot(symbol, anchor: anchor)
    real = RuntimeSymbols.address(of: symbol).map { UInt(bitPattern: $0) } ?? 0
  }

  /// The function the dynamic linker binds the slot to (what its lazy binder would store).
  private let real: UInt

  /// Whether the slot was found.
  var isAvailable: Bool { slot.address != nil }

  /// Whether the slot holds a replacement now.
  var isRedirected: Bool { saved.withLock { $0 != 0 } }

  /// The real function (0 when `dlsym` does not find it): what a replacement forwards to. It never
  /// changes, so a replacement that a thread entered through the slot just before ``restore()`` still
  /// forwards to the real function (the address saved by ``redirect(to:)`` is 0 again by then).
  var realFunction: UInt { real }

  /// Stores `replacement` (a C function's address) in the slot until ``restore()``.
  ///
  /// What is put back is the real function (found with `dlsym`, as the dynamic linker binds it), not
  /// what the slot held: a slot not used yet holds the lazy binder, whose first call would overwrite
  /// the replacement.
  func redirect(to replacement: UInt) {
    guard let address = slot.address, real != 0 else { return }
    saved.withLock { saved in
      guard saved == 0 else { return }
      saved = real
      write(replacement, at: address)
    }
  }

  /// Puts back the address the slot held before ``redirect(to:)``.
  func restore() {
    guard let address = slot.address else { return }
    saved.withLock { saved in
      guard saved != 0 else { return }
      write(saved, at: address)
      saved = 0
    }
  }

  private struct Slot: @unchecked Sendable {
    // Why @unchecked Sendable: immutable addresses into a library that stays loaded.
    var address: UnsafeMutableRawPointer?
    var relro: Range<UInt> = 0..<0
  }

  /// Stores `value` in the slot (one aligned word), making its page writable for the store when the
  /// library's relocations were made read-only after loading.
  private func write(_ value: UInt, at address: UnsafeMutableRawPointer) {
    let point = UInt(bitPattern: address)
    guard slot.relro.contains(point) else {
      address.storeBytes(of: value, as: UInt.self)
      return
    }
    let pageSize = UInt(sysconf(Int32(_SC_PAGESIZE)))
    let page = UnsafeMutableRawPointer(bitPattern: point & ~(pageSize - 1))
    guard mprotect(page, Int(pageSize), PROT_READ | PROT_WRITE) == 0 else { return }
    address.storeBytes(of: value, as: UInt.self)
    _ = mprotect(page, Int(pageSize), PROT_READ)
  }

  /// Finds the library's `JUMP_SLOT` (or else `GLOB_DAT`) relocation for `symbol`. (The caller first makes the library call
  /// the function once, so the slot holds the real function, not the lazy binder, whose first call
  /// would overwrite a hook.)
  private static func findSlot(_ symbol: String, anchor anchorSymbol: String) -> Slot {
    #if os(Linux) && (arch(x86_64) || arch(arm64))
      guard let anchor = RuntimeSymbols.address(of: anchorSymbol), let base = elfImage(containing: anchor)
      else { return Slot() }
      let baseAddress = UInt(bitPattern: base)
      // A 64-bit ELF whose program headers are 56-byte entries right after its header.
      guard base.load(fromByteOffset: 4, as: UInt8.self) == 2, base.load(fromByteOffset: 54, as: UInt16.self) == 56,
        base.load(fromByteOffset: 32, as: UInt64.self) < 4_096
      else { return Slot() }
      // The ELF header: program headers' offset, entry size and count.
      let programHeaders = Int(base.load(fromByteOffset: 32, as: UInt64.self))
      let entrySize = Int(base.load(fromByteOffset: 54, as: UInt16.self))
      let headerCount = Int(base.load(fromByteOffset: 56, as: UInt16.self))
      var dynamic: UnsafeRawPointer?
      var relro: Range<UInt> = 0..<0
      for index in 0..<headerCount {
        let header = base.advanced(by: programHeaders + index * entrySize)
        let type = header.load(as: UInt32.self)
        let virtualAddress = UInt(header.load(fromByteOffset: 16, as: UInt64.self))
        let size = UInt(header.load(fromByteOffset: 40, as: UInt64.self))
        if type == 2 { dynamic = UnsafeRawPointer(bitPattern: baseAddress + virtualAddress) }  // PT_DYNAMIC
        if type == 0x6474_e552 { relro = (baseAddress + virtualAddress)..<(baseAddress + virtualAddress + size) }
      }
      guard let dynamic else { return Slot() }
      // The dynamic section: the PLT relocations, their size, the symbol and string tables. (The
      // loader has usually relocated these pointers in place; an unrelocated one is an offset.)
      var table: [Int64: UInt] = [:]
      var entry = dynamic
      while case let tag = entry.load(as: Int64.self), tag != 0 {
        table[tag] = UInt(entry.load(fromByteOffset: 8, as: UInt64.self))
        entry = entry.advanced(by: 16)
      }
      func pointer(_ tag: Int64) -> UnsafeRawPointer? {
        guard let value = table[tag] else { return nil }
        return UnsafeRawPointer(bitPattern: value < baseAddress ? baseAddress + value : value)
      }
      guard let symbols = pointer(6), let strings = pointer(5) else { return Slot() }
      #if arch(arm64)
        let (jumpSlot, globalData): (UInt64, UInt64) = (1026, 1025)  // R_AARCH64_JUMP_SLOT, _GLOB_DAT
      #else
        let (jumpSlot, globalData): (UInt64, UInt64) = (7, 6)  // R_X86_64_JUMP_SLOT, _GLOB_DAT
      #endif
      // The PLT relocations (a called function), then the others (a function whose address the library
      // loads from its global offset table before calling it: the same slot to redirect).
      for (tableTag, sizeTag, type) in [(Int64(23), Int64(2), jumpSlot), (7, 8, globalData)] {
        guard let relocations = pointer(tableTag), let size = table[sizeTag] else { continue }
        for index in 0..<Int(size / 24) {
          let relocation = relocations.advanced(by: index * 24)
          let info = relocation.load(fromByteOffset: 8, as: UInt64.self)
          guard info & 0xffff_ffff == type else { continue }
          let symbolEntry = symbols.advanced(by: Int(info >> 32) * 24)
          let name = strings.advanced(by: Int(symbolEntry.load(as: UInt32.self)))
          guard strcmp(name.assumingMemoryBound(to: CChar.self), symbol) == 0 else { continue }
          let offset = UInt(relocation.load(as: UInt64.self))
          return Slot(address: UnsafeMutableRawPointer(bitPattern: baseAddress + offset), relro: relro)
        }
      }
      return Slot()
    #else
      return Slot()
    #endif
  }

  #if os(Linux)
    /// The start of the ELF image mapped around `address`: its first segment maps the file from offset 0
    /// (the ELF header) contiguously up to its code, so the header is on the nearest page at or below
    /// `address` that starts with the ELF magic (searched within 256 MiB).
    private static func elfImage(containing address: UnsafeMutableRawPointer) -> UnsafeRawPointer? {
      let pageSize = UInt(sysconf(Int32(_SC_PAGESIZE)))
      var page = UInt(bitPattern: address) & ~(pageSize - 1)
      let lowest = page > 1 << 28 ? page - (1 << 28) : pageSize
      while page >= lowest {
        if let pointer = UnsafeRawPointer(bitPattern: page), pointer.load(as: UInt32.self) == 0x464c_457f {
          return pointer
        }
        page -= pageSize
      }
      return nil
    }
  #endif
}
