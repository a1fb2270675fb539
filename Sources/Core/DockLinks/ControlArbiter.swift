public import DockVocabulary

/// Who may move the dock. Exactly one controller at a time: the system tracker when system
/// tracking is on, or one client. A client takes control by moving the dock (until the motion
/// ends) or by acquiring it (until it releases it, stops, or goes away); another client's motion
/// request is refused as busy unless it asks to take over. A client that goes away during a
/// bounded motion (one with an end of its own) leaves it to play out, unattended; one that held
/// control (acquired, or streaming velocities) has its motion stopped.
public struct ControlArbiter: Hashable, Sendable {
    /// Who holds control (the API's `Controller`: the status and `Watch` report it).
    public typealias Controller = Dock.Controller

    /// A change of controller, for `Watch`.
    public struct Change: Hashable, Sendable {
        /// The controller before.
        public var from: Controller
        /// The controller after.
        public var to: Controller
    }

    /// The refusal of a request for control.
    public struct Busy: Error, Hashable, Sendable {
        /// The client that holds control.
        public var holder: ClientID
    }

    /// Whether system tracking is on.
    public private(set) var isSystemTrackingEnabled: Bool
    /// Who holds control.
    public private(set) var controller: Controller

    /// Creates an arbiter; nobody but possibly the tracker holds control.
    public init(isSystemTrackingEnabled: Bool = false) {
        self.isSystemTrackingEnabled = isSystemTrackingEnabled
        controller = isSystemTrackingEnabled ? .systemTracker : .none
    }

    private var fallback: Controller { isSystemTrackingEnabled ? .systemTracker : .none }

    private mutating func become(_ next: Controller) -> Change? {
        guard next != controller else { return nil }
        defer { controller = next }
        return Change(from: controller, to: next)
    }

    /// A client asks to move the dock (velocity, orientation, animation).
    ///
    /// - Throws: `Busy` when another client holds control and `takeOver` is false.
    public mutating func motionRequested(by client: ClientID, takeOver: Bool = false) throws(Busy) -> Change? {
        if case .client(let holder, let isExplicit) = controller {
            if holder == client { return become(.client(client, isExplicit: isExplicit)) }
            guard takeOver else { throw Busy(holder: holder) }
        }
        return become(.client(client, isExplicit: false))
    }

    /// A client acquires control until it releases it.
    ///
    /// - Throws: `Busy` when another client holds control and `takeOver` is false.
    public mutating func acquire(by client: ClientID, takeOver: Bool = false) throws(Busy) -> Change? {
        try checkFree(for: client, takeOver: takeOver)
        return become(.client(client, isExplicit: true))
    }

    /// A client stops the dock: control goes back to the tracker (or nobody).
    ///
    /// - Throws: `Busy` when another client holds control and `takeOver` is false.
    public mutating func stopRequested(by client: ClientID, takeOver: Bool = false) throws(Busy) -> Change? {
        try checkFree(for: client, takeOver: takeOver)
        return become(fallback)
    }

    private func checkFree(for client: ClientID, takeOver: Bool) throws(Busy) {
        if case .client(let holder, _) = controller, holder != client, !takeOver { throw Busy(holder: holder) }
    }

    /// A client gives control back; nothing happens if it does not hold it.
    public mutating func release(by client: ClientID) -> Change? {
        guard case .client(client, _) = controller else { return nil }
        return become(fallback)
    }

    /// A client's motion ended by itself (its velocity ran out, its move arrived, its animation
    /// finished): control it took by moving returns to the tracker; acquired control stays.
    public mutating func motionEnded(for client: ClientID) -> Change? {
        switch controller {
        case .client(client, isExplicit: false), .unattended(client): return become(fallback)
        case .none, .systemTracker, .client, .unattended: return nil
        }
    }

    /// A client went away. A bounded motion it started (`hasBoundedMotion`) plays on unattended;
    /// otherwise control goes back and the client's motion must be stopped. Returns the change,
    /// and whether to stop.
    public mutating func clientDisconnected(_ client: ClientID, hasBoundedMotion: Bool = false) -> (change: Change?, mustStop: Bool) {
        guard case .client(client, let isExplicit) = controller else { return (nil, false) }
        if hasBoundedMotion, !isExplicit { return (become(.unattended(formerClient: client)), false) }
        return (become(fallback), true)
    }

    /// Turns system tracking on or off; the tracker takes control only if no client holds it.
    public mutating func setSystemTracking(_ enabled: Bool) -> Change? {
        isSystemTrackingEnabled = enabled
        switch controller {
        case .none, .systemTracker: return become(fallback)
        case .client, .unattended: return nil
        }
    }

    /// The dock's tracking button was pressed: system tracking toggles.
    public mutating func trackingButtonPressed() -> Change? {
        setSystemTracking(!isSystemTrackingEnabled)
    }
}
