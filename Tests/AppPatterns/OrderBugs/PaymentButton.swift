// App code as a team writes it: no import of swift-async-schedulers.

/// Checks a payment before it is sent (its own actor: a keychain, a fraud check).
public actor PaymentValidator {
  public init() {}
  public func validate(_ amount: Int) -> Bool { amount > 0 }
}

/// A payments backend that counts the charges it receives.
public actor PaymentBackend {
  public private(set) var charges = 0
  public init() {}
  public func charge(_ amount: Int) { charges += 1 }
}

/// Order bug: the button is disabled only after validation, an `await` later, so two taps that both
/// pass the check before either disables it charge twice.
@MainActor
public final class PaymentButtonModel {
  public private(set) var isPaying = false
  private let validator: PaymentValidator
  private let backend: PaymentBackend
  public init(validator: PaymentValidator, backend: PaymentBackend) {
    self.validator = validator
    self.backend = backend
  }

  public func tapped(amount: Int) async {
    guard !isPaying else { return }
    guard await validator.validate(amount) else { return }
    isPaying = true
    await backend.charge(amount)
  }
}

/// The fix: the button is disabled before anything is awaited.
@MainActor
public final class SingleChargePaymentButtonModel {
  public private(set) var isPaying = false
  private let validator: PaymentValidator
  private let backend: PaymentBackend
  public init(validator: PaymentValidator, backend: PaymentBackend) {
    self.validator = validator
    self.backend = backend
  }

  public func tapped(amount: Int) async {
    guard !isPaying else { return }
    isPaying = true
    guard await validator.validate(amount) else {
      isPaying = false
      return
    }
    await backend.charge(amount)
  }
}
