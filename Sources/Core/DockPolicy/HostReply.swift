public import DockLinks
public import DockProtocol
public import DockVocabulary

/// The answer to a request.
public enum HostReply: Hashable, Sendable {
    /// Done; nothing to report.
    case done
    /// A motion was accepted (and, when the caller waited, how it ended).
    case motion(MotionOutcome)
    /// The limits now in force.
    case limits(MotionLimits)
    /// The subject now followed.
    case subject(Int)
    /// The region of interest now in force (what was asked, cut to the picture).
    case region(NormalizedRect)
    /// The subjects chosen (`selectSubjects`), and those of them no subject tracked now has (the
    /// choice is kept: a subject of that ID may yet appear).
    case selection(untracked: [Int])
    /// The zoom now set, a fraction of the camera's range.
    case zoom(Double)
    /// The preset saved.
    case preset(Preset)
    /// The presets, in the order they were first saved.
    case presets([Preset])
    /// The lost behaviour in force.
    case lostBehaviour(LostBehaviour)
    /// Refused.
    case failure(HostError)
}

/// Why a request was refused, or a motion failed.
public enum HostError: Error, Hashable, Sendable {
    /// No accessory is in session (or it went away during the motion).
    case notReady
    /// Another client holds control.
    case busy(holder: ClientID)
    /// A parameter is invalid.
    case invalid(MotionError)
    /// A parameter is invalid: its path (`observations[2].appearance`) and why.
    case invalidParameter(String, reason: String)
    /// The dock refused the command.
    case dockRefused(CommandRefusal.Reason, detail: UInt16)
    /// The dock raised a fault that ended the motion.
    case dockFault(FaultReport)
    /// No subject at that point.
    case noSubjectFound
    /// The dock lacks what was asked for: the capability's name (`zoom`).
    case notSupported(String)
    /// No preset of this name.
    case noSuchPreset(String)
    /// The presets file cannot be written, or was found damaged (then dockd does not write
    /// over it): the file, and what is wrong.
    case presetsUnavailable(file: String, reason: String)
}

/// What became of an accepted motion request.
public struct MotionOutcome: Hashable, Sendable {
    /// The request's fields that were clamped to the limits.
    public var clampedFields: [MotionParameter]
    /// The animation the request cancelled, if one was playing.
    public var cancelledAnimation: AnimationKind?
    /// How the motion ended, when the caller waited for its end; nil when it was only accepted.
    public var ending: MotionEnding?

    /// Creates an outcome.
    public init(clampedFields: [MotionParameter], cancelledAnimation: AnimationKind?, ending: MotionEnding?) {
        self.clampedFields = clampedFields
        self.cancelledAnimation = cancelledAnimation
        self.ending = ending
    }
}

/// How a motion that was not refused ended.
public enum MotionEnding: Hashable, Sendable {
    /// It played to its end: the velocity's duration ran out, the orientation was reached, the
    /// animation finished.
    case completed(MotionFinish)
    /// A later motion replaced it, from this client or from the one named.
    case replaced(byClient: ClientID)
    /// A `Stop` ended it (from the client named), or the host stopped it (nil: its owner went
    /// away holding control, or control was released).
    case stopped(byClient: ClientID?)
}
