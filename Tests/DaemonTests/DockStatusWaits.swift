import Foundation
import Glibc
import TestSupport

/// Waits on dockd's own status instead of on the test's clock: a look at the status is a
/// `GetStatus` call, and the looks go on (10 ms apart) until what is waited for shows or a
/// generous deadline passes.
extension VarlinkTestClient {
    /// dockd's status (`GetStatus`), or nil when no status came.
    func dockStatus() throws -> [String: Any]? {
        (try call("io.dockd.Dock.GetStatus")?["parameters"] as? [String: Any])?["status"] as? [String: Any]
    }

    /// The control loop's tick count in `status` (`loop.ticks`).
    static func ticks(_ status: [String: Any]?) -> Int? { (status?["loop"] as? [String: Any])?["ticks"] as? Int }

    /// The first status that `isWanted` holds for, and every status looked at on the way (the
    /// last of them is the one returned); nil, with those looked at, when `timeoutSeconds` pass
    /// first.
    func dockStatus(
        timeoutSeconds: Double = 60, until isWanted: ([String: Any]) -> Bool
    ) throws -> (status: [String: Any]?, seen: [[String: Any]]) {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeoutSeconds * 1000))
        var seen: [[String: Any]] = []
        while true {
            if let status = try dockStatus() {
                seen.append(status)
                if isWanted(status) { return (status, seen) }
            }
            guard ContinuousClock.now < deadline else { return (nil, seen) }
            usleep(10_000)
        }
    }

    /// The statuses dockd shows from now until its control loop has ticked `count` more times:
    /// what was done before the first look (a call answered, a signal's log line read) has had
    /// those ticks to show its effects. Empty when the ticks did not come before the deadline.
    func dockStatuses(throughTicks count: Int, timeoutSeconds: Double = 60) throws -> [[String: Any]] {
        var first: Int?
        let (last, seen) = try dockStatus(timeoutSeconds: timeoutSeconds) { status in
            guard let ticks = Self.ticks(status) else { return false }
            first = first ?? ticks
            return ticks >= (first ?? ticks) + count
        }
        return last == nil ? [] : seen
    }
}
