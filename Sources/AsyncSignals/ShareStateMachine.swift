/// The state of one `share(replay:)` signal; pure. It counts the subscribers of the current connection
/// (one upstream subscription with its subject) and decides when to connect and disconnect.
///
/// A connection is numbered (its generation), so that late news about an old connection (its upstream
/// subscription handle arriving after everyone left, a subscriber of an ended connection leaving) is
/// told apart from the current one.
@usableFromInline struct ShareStateMachine<Connection, Handle> {
  /// The current connection, if any.
  @usableFromInline struct Current {
    @usableFromInline var generation: UInt64
    @usableFromInline var connection: Connection
    @usableFromInline var subscribers: Int
    /// The upstream subscription, once the connecting thread has it.
    @usableFromInline var handle: Handle?

    @inlinable init(generation: UInt64, connection: Connection, subscribers: Int, handle: Handle? = nil) {
      self.generation = generation
      self.connection = connection
      self.subscribers = subscribers
      self.handle = handle
    }
  }

  @usableFromInline var current: Current?
  @usableFromInline var lastGeneration: UInt64 = 0

  @inlinable init() {}

  /// What a new subscriber does after the lock.
  @usableFromInline enum SubscribeAction {
    /// Join the current connection.
    case join(Connection, generation: UInt64)
    /// Join this new connection, then subscribe to the upstream for it and report the handle with
    /// ``connected(_:handle:)``.
    case connect(Connection, generation: UInt64)
  }

  /// A subscriber arrives: it joins the current connection, or a new one made by `makeConnection`.
  @inlinable mutating func subscribe(makeConnection: () -> Connection) -> SubscribeAction {
    if var current {
      current.subscribers += 1
      self.current = current
      return .join(current.connection, generation: current.generation)
    }
    lastGeneration += 1
    let connection = makeConnection()
    current = Current(generation: lastGeneration, connection: connection, subscribers: 1)
    return .connect(connection, generation: lastGeneration)
  }

  /// The connecting thread has the upstream subscription of `generation`: it is kept, or returned to be
  /// disposed when that connection is already over (everyone left meanwhile).
  @inlinable mutating func connected(_ generation: UInt64, handle: Handle) -> Handle? {
    guard current?.generation == generation else { return handle }
    current?.handle = handle
    return nil
  }

  /// What happens when a subscriber leaves or the upstream ends.
  @usableFromInline enum EndAction {
    case none
    /// The connection is over: dispose its upstream subscription, if there is one yet.
    case disconnect(Handle?)
  }

  /// A subscriber of `generation` leaves: the last one of the current connection ends it.
  @inlinable mutating func unsubscribe(_ generation: UInt64) -> EndAction {
    guard var current, current.generation == generation else { return .none }
    current.subscribers -= 1
    guard current.subscribers == 0 else {
      self.current = current
      return .none
    }
    self.current = nil
    return .disconnect(current.handle)
  }

  /// The upstream of `generation` ended: the next subscriber makes a new connection (the subscribers of
  /// this one get the end through its subject).
  @inlinable mutating func upstreamEnded(_ generation: UInt64) -> EndAction {
    guard let current, current.generation == generation else { return .none }
    self.current = nil
    return .disconnect(current.handle)
  }
}
