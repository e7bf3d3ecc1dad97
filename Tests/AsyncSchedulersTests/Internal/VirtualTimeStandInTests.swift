import AsyncSchedulersTestSupport
import Dispatch
import Foundation
import Testing

@testable import AsyncSchedulers

@Suite("VirtualTimeStandIn")
struct VirtualTimeStandInTests {
  @Test("asking for the stand-in 10,000 times leaves the provider as shallow to call as the first time")
  func manyLookupsKeepTheProviderShallow() async {
    // In a child process: the provider is process-wide, and the scopes of tests running beside this one
    // install their own. Before the provider was boxed, each lookup wrapped it in two more reabstraction
    // thunks, so after 10,000 lookups a call recursed 20,000 frames deep: more than a 128 KiB stack holds.
    await #expect(processExitsWith: .success) {
      VirtualTimeStandIn.install { _ in nil }
      for _ in 0..<10_000 { _ = VirtualTimeStandIn.standIn(for: .background) }
      let done = DispatchSemaphore(value: 0)
      let thread = Thread {
        _ = VirtualTimeStandIn.standIn(for: .background)
        done.signal()
      }
      thread.stackSize = 128 * 1024
      thread.start()
      done.wait()
      VirtualTimeStandIn.remove()
      exitChildProcessSuccessfully()
    }
  }
}
