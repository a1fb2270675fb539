public import DockLinks
public import DockProtocol
public import DockVocabulary

/// What a caller is told, in the API's vocabulary: the policy answers in its own terms (which
/// motion parameter, which fault, how a motion finished) and says them the clients' way here,
/// once, for the daemon to send and the client to read back as the same value.
extension HostReply {
    /// The answer as the API gives it: the reply's fields, or the named error.
    public var answer: Result<Dock.Reply, Dock.Failure> {
        switch self {
        case .done: .success(.done)
        case .motion(let outcome): .success(.motion(Dock.MotionResult(outcome)))
        case .limits(let limits): .success(.limits(Dock.Limits(limits)))
        case .subject(let subject): .success(.subject(subject))
        case .region(let region): .success(.region(region))
        case .selection(let untracked): .success(.selection(untracked: untracked))
        case .zoom(let fraction): .success(.zoom(fraction))
        case .preset(let preset): .success(.preset(preset))
        case .presets(let presets): .success(.presets(presets))
        case .lostBehaviour(let behaviour): .success(.lostBehaviour(behaviour))
        case .failure(let error): .failure(error.failure)
        }
    }
}

extension HostError {
    /// The named error that says so.
    public var failure: Dock.Failure {
        switch self {
        case .notReady: .notReady
        case .busy(let holder): .busy(holder: holder)
        case .noSubjectFound: .noSubjectFound
        case .notSupported(let capability): .notSupported(capability: capability)
        case .dockRefused(let reason, let detail): .dockRefused(reason: reason.name, detail: Int(detail))
        case .dockFault(let fault): .dockFault(Dock.Fault(fault))
        case .invalidParameter(let parameter, let reason): .invalidParameter(ParameterError(parameter: parameter, reason: reason))
        case .invalid(let error): Dock.Failure(error)
        case .noSuchPreset(let name): .noSuchPreset(name)
        case .presetsUnavailable(let file, let reason): .presetsUnavailable(file: file, reason: reason)
        }
    }
}

extension Dock.MotionResult {
    /// What clients see of `outcome`: the clamped parameters by their wire names.
    public init(_ outcome: MotionOutcome) {
        self.init(
            clamped: outcome.clampedFields.map(\.wireName), cancelledAnimation: outcome.cancelledAnimation,
            ended: outcome.ending.map(Dock.MotionEnd.init))
    }
}

extension Dock.MotionEnd {
    /// What clients see of `ending` (an animation's finish without its name).
    public init(_ ending: MotionEnding) {
        switch ending {
        case .completed(let finish):
            let name: Finish =
                switch finish {
                case .velocityExpired: .expired
                case .orientationReached: .reached
                case .animationFinished: .finished
                case .timedOut: .timedOut
                }
            self = .completed(name)
        case .replaced(let client): self = .replaced(byClient: client)
        case .stopped(let client): self = .stopped(byClient: client)
        }
    }
}

extension Dock.Limits {
    /// The part of `limits` clients see (not the accelerations).
    public init(_ limits: MotionLimits) {
        self.init(
            yawRadians: limits.yawRadians, pitchRadians: limits.pitchRadians,
            yawSpeedRadiansPerSecond: limits.yawSpeedRadiansPerSecond, pitchSpeedRadiansPerSecond: limits.pitchSpeedRadiansPerSecond)
    }
}

extension Dock.Fault {
    /// The fault `report` describes, by its code's and axis' names.
    public init(_ report: FaultReport) {
        self.init(code: report.code.name, axis: report.axis.map(Dock.Axis.init), isActive: report.isActive)
    }
}

extension Dock.Axis {
    /// The API's name of the accessory's `axis`.
    public init(_ axis: Axis) {
        switch axis {
        case .yaw: self = .yaw
        case .pitch: self = .pitch
        }
    }
}

extension Dock.ButtonEvent {
    /// What clients hear of the accessory's button event `kind`.
    public init(_ kind: AccessoryEvent.Kind) {
        switch kind {
        case .trackingButton(let pressed): self = .trackingButton(isPressed: pressed)
        case .shutterButton(let pressed): self = .shutterButton(isPressed: pressed)
        case .flipButton(let pressed): self = .flipButton(isPressed: pressed)
        case .zoom(let steps): self = .zoom(steps: steps)
        case .customButton(let identifier, let pressed): self = .customButton(identifier: identifier, isPressed: pressed)
        case .dockChanged(let isDocked): self = .dockChanged(isDocked: isDocked)
        }
    }
}
