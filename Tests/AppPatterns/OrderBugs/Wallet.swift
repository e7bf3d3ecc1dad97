// App code as a team writes it: no import of swift-async-schedulers.

/// An audit log on its own actor.
public actor AuditLog {
  public private(set) var entries: [Int] = []
  public init() {}
  public func record(_ amount: Int) { entries.append(amount) }
}

/// Order bug: a deposit reads the balance, awaits the audit log, then writes the balance it read plus
/// the amount, so a deposit that runs during the `await` is lost (actor reentrancy).
public actor Wallet {
  public private(set) var balance = 0
  private let log: AuditLog
  public init(log: AuditLog) { self.log = log }

  public func deposit(_ amount: Int) async {
    let current = balance
    await log.record(amount)
    balance = current + amount
  }
}

/// The fix: the balance is changed in one step, with nothing awaited between its read and its write.
public actor AtomicWallet {
  public private(set) var balance = 0
  private let log: AuditLog
  public init(log: AuditLog) { self.log = log }

  public func deposit(_ amount: Int) async {
    balance += amount
    await log.record(amount)
  }
}
