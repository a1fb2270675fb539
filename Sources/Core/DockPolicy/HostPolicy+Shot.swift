import DockLinks
import DockLogLevel
import DockNumbers
import DockTracking
import DockVocabulary

/// The shot size: the tracker's zoom, carried out as the accessory's zoom commands.
extension HostPolicy {
    /// Whether the accessory has a zoom the host drives and knows the optics of (its
    /// magnification at the longest end): what a shot size needs.
    var canHoldShot: Bool {
        guard case .ready = session.state, session.zoomFraction(nearest: 0) != nil,
            let longest = session.magnification(atZoomFraction: 1)
        else { return false }
        return longest.isFinite && longest >= 1
    }

    /// A client's `SetShotSize`: any size but `off` needs a zoom the host drives and knows the
    /// optics of — refused as `NotSupported` (`zoom`) otherwise, the shot size in force kept.
    mutating func setShotSize(_ shot: ShotSize, client: ClientID, into actions: inout [HostAction]) -> HostReply {
        if shot.isActive {
            guard case .ready = session.state else { return .failure(.notReady) }
            guard canHoldShot else { return .failure(.notSupported("zoom")) }
        }
        if shot != pipeline.shotSize {
            log(.notice, "shot size \(shot.setting) (client \(client))", into: &actions)
        }
        pipeline.shotSize = shot
        return .done
    }

    /// The zoom as the tracker needs it at a tick: the magnification now (the zoom in the pose
    /// history; the widest when the accessory has not said) and at the longest end; nil when the
    /// accessory cannot hold a shot.
    func zoomOptics(pose: Pose) -> ZoomOptics? {
        guard pipeline.shotSize.isActive, canHoldShot, let longest = session.magnification(atZoomFraction: 1),
            let now = session.magnification(atZoomFraction: pose.zoomFraction ?? 0)
        else { return nil }
        return ZoomOptics(magnification: now, maximumMagnification: longest)
    }

    /// Sends the zoom that gives `magnification`, when it differs from the last one sent (once
    /// the accessory's steps have rounded it) and at most every `shotZoomInterval`.
    mutating func holdShot(magnification: Double, now: Duration, into actions: inout [HostAction]) {
        let fraction = zoomFraction(forMagnification: magnification)
        guard let rounded = session.zoomFraction(nearest: fraction) else { return }
        if let sent = shotZoomSent {
            guard abs(sent.fraction - rounded) > 1e-9, now - sent.at >= Self.shotZoomInterval else { return }
        }
        shotZoomSent = (rounded, now)
        _ = send(.zoom(fraction: fraction), now: now, into: &actions)
    }

    /// The least time between two zoom commands of the shot size: a camera's zoom is a slow
    /// control, and a command at every 30 Hz tick would queue behind itself.
    static let shotZoomInterval = Duration.milliseconds(100)

    /// The zoom fraction whose magnification is `magnification`, by the accessory's table
    /// (bisection: a table rises along the range); 0 below its widest, 1 beyond its longest.
    func zoomFraction(forMagnification magnification: Double) -> Double {
        var low = 0.0, high = 1.0
        guard let longest = session.magnification(atZoomFraction: 1), magnification < longest else { return 1 }
        guard let widest = session.magnification(atZoomFraction: 0), magnification > widest else { return 0 }
        for _ in 0..<40 {
            let middle = (low + high) / 2
            if (session.magnification(atZoomFraction: middle) ?? 1) < magnification { low = middle } else { high = middle }
        }
        return (low + high) / 2
    }
}
