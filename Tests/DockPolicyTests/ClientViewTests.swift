import DockPolicy
import DockProtocol
import DockVocabulary
import Testing

@testable import DockLinks

/// What the policy's replies, errors and events say in the API's vocabulary: each of the policy's
/// own values mapped once, to the value the daemon sends and a client reads back.
@Suite struct ClientViewTests {
    @Test func everyReplyIsAnsweredInTheAPIsTerms() {
        let limits = MotionLimits(info: ExampleSession.info)
        let cases: [(HostReply, Result<Dock.Reply, Dock.Failure>)] = [
            (.done, .success(.done)),
            (
                .motion(MotionOutcome(clampedFields: [.yaw, .yawRange, .pitchMaximumSpeed], cancelledAnimation: .wake, ending: nil)),
                .success(.motion(Dock.MotionResult(clamped: ["yaw", "yaw", "max_speed"], cancelledAnimation: .wake)))
            ),
            (
                .limits(limits),
                .success(
                    .limits(
                        Dock.Limits(
                            yawRadians: limits.yawRadians, pitchRadians: limits.pitchRadians,
                            yawSpeedRadiansPerSecond: limits.yawSpeedRadiansPerSecond,
                            pitchSpeedRadiansPerSecond: limits.pitchSpeedRadiansPerSecond)))
            ),
            (.subject(12), .success(.subject(12))), (.region(.fullImage), .success(.region(.fullImage))),
            (.selection(untracked: [4]), .success(.selection(untracked: [4]))), (.zoom(0.5), .success(.zoom(0.5))),
            (.failure(.busy(holder: 3)), .failure(.busy(holder: 3))),
        ]
        for (reply, expected) in cases { #expect(reply.answer == expected, "\(reply)") }
    }

    @Test func everyEndingIsNamedAsTheAPINamesIt() {
        let cases: [(MotionEnding, Dock.MotionEnd)] = [
            (.completed(.velocityExpired), .completed(.expired)), (.completed(.orientationReached), .completed(.reached)),
            (.completed(.animationFinished(.no)), .completed(.finished)), (.completed(.timedOut), .completed(.timedOut)),
            (.replaced(byClient: 4), .replaced(byClient: 4)), (.stopped(byClient: 9), .stopped(byClient: 9)),
            (.stopped(byClient: nil), .stopped(byClient: nil)),
        ]
        for (ending, expected) in cases {
            #expect(Dock.MotionEnd(ending) == expected)
            let outcome = MotionOutcome(clampedFields: [], cancelledAnimation: nil, ending: ending)
            #expect(HostReply.motion(outcome).answer == .success(.motion(Dock.MotionResult(ended: expected))))
        }
    }

    @Test func everyErrorIsANamedFailureWithItsFields() {
        let stall = FaultReport(accessoryTime: AccessoryTimestamp(microseconds: 0), code: .motorStall, axis: .yaw, isActive: true)
        let cases: [(HostError, Dock.Failure)] = [
            (.notReady, .notReady), (.busy(holder: 3), .busy(holder: 3)), (.noSubjectFound, .noSubjectFound),
            (.notSupported("zoom"), .notSupported(capability: "zoom")),
            (.dockRefused(.outOfRange, detail: 2), .dockRefused(reason: "out_of_range", detail: 2)),
            (.dockRefused(.unsupported, detail: 0), .dockRefused(reason: "unknown_message", detail: 0)),
            (.dockFault(stall), .dockFault(Dock.Fault(code: "motor_stall", axis: .yaw, isActive: true))),
            (
                .invalidParameter("observations[2].appearance", reason: "must have 4 values"),
                .invalidParameter(ParameterError(parameter: "observations[2].appearance", reason: "must have 4 values"))
            ),
            (.invalid(.notFinite(field: .yaw)), .invalidParameter(ParameterError(parameter: "yaw", reason: "must be finite"))),
            (
                .invalid(.outOfRange(field: .pitchRange, allowed: -1...1)),
                .invalidParameter(ParameterError(parameter: "pitch", reason: "must be within -1.0...1.0"))
            ),
            (.invalid(.notReady), .notReady),
        ]
        for (error, expected) in cases {
            #expect(error.failure == expected, "\(error)")
            #expect(HostReply.failure(error).answer == .failure(expected))
        }
    }

    /// Every event the policy publishes, with its fields and its line of text, as `Watch` has
    /// always said them.
    @Test func everyEventIsToldWithItsFieldsAndItsLine() {
        let policy = HostPolicy()
        let status = policy.status(now: .zero, device: "/dev/dock0")
        let attached = policy.accessory(ExampleSession.info, device: "/dev/dock0")
        #expect(attached.identifier == "SIM-0001" && attached.model == "DK-1 Demo" && attached.device == "/dev/dock0")
        #expect(attached.protocolName == "dock-serial" && attached.protocolVersion == 1)
        #expect(Set(attached.capabilities).isDisjoint(with: attached.lacks))
        let cases: [(HostEvent?, Dock.Event.Payload, String)] = [
            (nil, .status, ""),
            (.attached(ExampleSession.info, isDocked: true), .attached(attached), "DK-1 Demo SIM-0001, docked"),
            (.attached(ExampleSession.info, isDocked: false), .attached(attached), "DK-1 Demo SIM-0001, undocked"),
            (.docked, .docked, "camera mounted"), (.undocked, .undocked, "camera removed"), (.disconnected, .disconnected, "/dev/dock0"),
            (.button(.trackingButton(isPressed: true)), .button(.trackingButton(isPressed: true)), "tracking pressed"),
            (.button(.shutterButton(isPressed: false)), .button(.shutterButton(isPressed: false)), "shutter released"),
            (.button(.flipButton(isPressed: true)), .button(.flipButton(isPressed: true)), "flip pressed"),
            (.button(.zoom(steps: -2)), .button(.zoom(steps: -2)), "zoom -2"),
            (
                .button(.customButton(identifier: 9, isPressed: true)), .button(.customButton(identifier: 9, isPressed: true)),
                "button 9 pressed"
            ),
            (.button(.dockChanged(isDocked: false)), .button(.dockChanged(isDocked: false)), "undocked"),
            (
                .fault(FaultReport(accessoryTime: AccessoryTimestamp(microseconds: 1), code: .encoderError, axis: .yaw, isActive: false)),
                .fault(Dock.Fault(code: "encoder_error", axis: .yaw, isActive: false)), "encoder_error on yaw cleared"
            ),
            (
                .fault(FaultReport(accessoryTime: AccessoryTimestamp(microseconds: 1), code: .overTemperature, axis: nil, isActive: true)),
                .fault(Dock.Fault(code: "over_temperature", axis: nil, isActive: true)), "over_temperature raised"
            ),
            (
                .refused(CommandRefusal(reason: .faulted, detail: 1, command: .velocity)),
                .refused(Dock.CommandRefusal(reason: "faulted", detail: 1, command: "set_velocity")),
                "set_velocity refused: faulted detail 1"
            ),
            (
                .refused(CommandRefusal(reason: .unsupported, detail: 0, command: nil)),
                .refused(Dock.CommandRefusal(reason: "unknown_message", detail: 0, command: nil)), "refused: unknown_message detail 0"
            ),
            (
                .control(ControlArbiter.Change(from: .systemTracker, to: .client(3, isExplicit: true))),
                .control(from: .systemTracker, to: .client(3, isExplicit: true)), "system tracker -> client 3 (acquired)"
            ),
            (
                .control(ControlArbiter.Change(from: .unattended(formerClient: 4), to: .none)),
                .control(from: .unattended(formerClient: 4), to: .none), "client 4's motion (client gone) -> nobody"
            ),
            (.framing(.center), .framing(.center), "center"),
            (
                .motionEnded(owner: 3, ending: .completed(.velocityExpired)), .motionEnded(client: 3, ending: .completed(.expired)),
                "client 3's motion completed (velocityExpired)"
            ),
            (
                .motionEnded(owner: 1, ending: .completed(.animationFinished(.yes))),
                .motionEnded(client: 1, ending: .completed(.finished)),
                "client 1's motion completed (animationFinished(DockLinks.AnimationKind.yes))"
            ),
            (
                .motionEnded(owner: 3, ending: .stopped(byClient: nil)), .motionEnded(client: 3, ending: .stopped(byClient: nil)),
                "client 3's motion stopped"
            ),
            (
                .motionEnded(owner: 5, ending: .stopped(byClient: 2)), .motionEnded(client: 5, ending: .stopped(byClient: 2)),
                "client 5's motion stopped by client 2"
            ),
            (
                .motionEnded(owner: 5, ending: .replaced(byClient: 6)), .motionEnded(client: 5, ending: .replaced(byClient: 6)),
                "client 5's motion replaced by client 6"
            ),
        ]
        for (event, payload, detail) in cases {
            let told = policy.clientEvent(event, time: .milliseconds(1250), status: status, device: "/dev/dock0")
            #expect(told == Dock.Event(timeSeconds: 1.25, payload: payload, detail: detail, status: status), "\(String(describing: event))")
        }
    }

    /// A policy with no dock yet says so in the one status model.
    @Test func aFreshPolicysStatusSaysNoDockYet() {
        var policy = HostPolicy()
        let status = policy.status(now: .zero, device: "memory")
        #expect(status.state == .disconnected && !status.isDocked && status.accessory == nil && status.pose == nil)
        #expect(status.limits == nil && status.controller == .none && status.motion == .idle && status.tracker == .idle)
        #expect(status.counters == Dock.Counters(badFrames: 0, reconnects: 0, refusals: 0, observations: 0, cameraFrames: 0))
        #expect(status.loop == .none, "the loop's figures are the shell's to fill in")
        #expect(policy.loop() == .none, "no ticks yet")
    }
}
