import Foundation

/// What the soak saw of dockd in one sampling interval: its memory, descriptors and threads from
/// /proc, its loop's punctuality from `GetStatus`, and what the clients met since the last sample.
struct SoakSample: Equatable, Sendable {
    /// Seconds since the soak started.
    var seconds: Double
    /// VmRSS, MiB.
    var residentMebibytes: Double
    /// Entries of /proc/PID/fd.
    var descriptors: Int
    /// Threads: /proc/PID/status.
    var threads: Int
    /// The 30 Hz loop's lateness over dockd's last 1024 ticks (about 34 s), µs.
    var latenessP50Microseconds: Double
    var latenessP99Microseconds: Double
    var latenessMaximumMicroseconds: Double
    /// Ticks the loop missed in this interval.
    var missedTicks: Int
    /// Calls the well-behaved clients made in this interval (Track, GetStatus, ListAccessories).
    var calls: Int
    /// Failures no client caused, in this interval: a refused connection, a dropped call, an
    /// error other than the ones an unplugged dock or a contested control explains.
    var errors: Int
    /// Errors the soak caused, in this interval: `NotReady` or `NoSuchAccessory` while the dock
    /// is unplugged, `Busy` while a holder has control.
    var expectedErrors: Int
    /// What the chaos did so far: holders killed with SIGKILL, clients that vanished (mid-`Watch`
    /// or before reading their answer), garbage connections, unplugs.
    var holdersKilled: Int
    var vanished: Int
    var garbage: Int
    var unplugs: Int
    /// Times dockd lost the dock's link so far (its own counter).
    var dockReconnects: Int

    /// One JSON object (the keys are the soak's own, none of the wire's).
    var json: String {
        "{\"t\":\(decimal(seconds)),\"rss_mib\":\(decimal(residentMebibytes, places: 2)),\"descriptors\":\(descriptors),"
            + "\"threads\":\(threads),\"late_p50_us\":\(decimal(latenessP50Microseconds)),\"late_p99_us\":\(decimal(latenessP99Microseconds)),"
            + "\"late_max_us\":\(decimal(latenessMaximumMicroseconds)),\"missed_ticks\":\(missedTicks),\"calls\":\(calls),"
            + "\"errors\":\(errors),\"expected_errors\":\(expectedErrors),\"holders_killed\":\(holdersKilled),"
            + "\"vanished\":\(vanished),\"garbage\":\(garbage),\"unplugs\":\(unplugs),\"dock_reconnects\":\(dockReconnects)}"
    }
}

/// The soak's verdict from its samples: memory over the last half, descriptors and threads over
/// the whole run after the first sample, errors and lateness over all of it.
struct SoakSummary: Equatable, Sendable {
    var samples: Int
    var residentFirst: Double
    var residentLastHalfMinimum: Double
    var residentLastHalfMaximum: Double
    /// Least-squares slope of RSS over the last half, MiB per hour.
    var residentLastHalfSlopePerHour: Double
    var descriptorsMinimum: Int
    var descriptorsMaximum: Int
    var threadsMinimum: Int
    var threadsMaximum: Int
    var errors: Int
    var expectedErrors: Int
    var calls: Int
    var missedTicks: Int
    var latenessP99Maximum: Double
    var latenessMaximum: Double

    /// Nil without samples.
    init?(_ samples: [SoakSample]) {
        guard let first = samples.first else { return nil }
        self.samples = samples.count
        residentFirst = first.residentMebibytes
        let lastHalf = Array(samples[(samples.count / 2)...])
        residentLastHalfMinimum = lastHalf.map(\.residentMebibytes).min()!
        residentLastHalfMaximum = lastHalf.map(\.residentMebibytes).max()!
        residentLastHalfSlopePerHour = Self.slope(lastHalf.map { ($0.seconds, $0.residentMebibytes) }) * 3600
        descriptorsMinimum = samples.map(\.descriptors).min()!
        descriptorsMaximum = samples.map(\.descriptors).max()!
        threadsMinimum = samples.map(\.threads).min()!
        threadsMaximum = samples.map(\.threads).max()!
        errors = samples.reduce(0) { $0 + $1.errors }
        expectedErrors = samples.reduce(0) { $0 + $1.expectedErrors }
        calls = samples.reduce(0) { $0 + $1.calls }
        missedTicks = samples.reduce(0) { $0 + $1.missedTicks }
        latenessP99Maximum = samples.map(\.latenessP99Microseconds).filter(\.isFinite).max() ?? .nan
        latenessMaximum = samples.map(\.latenessMaximumMicroseconds).filter(\.isFinite).max() ?? .nan
    }

    /// The least-squares slope of y over x (0 for fewer than two distinct x).
    static func slope(_ points: [(Double, Double)]) -> Double {
        let count = Double(points.count)
        guard points.count > 1 else { return 0 }
        let meanX = points.reduce(0) { $0 + $1.0 } / count, meanY = points.reduce(0) { $0 + $1.1 } / count
        let covariance = points.reduce(0) { $0 + ($1.0 - meanX) * ($1.1 - meanY) }
        let variance = points.reduce(0) { $0 + ($1.0 - meanX) * ($1.0 - meanX) }
        return variance > 0 ? covariance / variance : 0
    }

    var json: String {
        "{\"samples\":\(samples),\"rss_mib\":{\"first\":\(decimal(residentFirst, places: 2)),"
            + "\"last_half_min\":\(decimal(residentLastHalfMinimum, places: 2)),\"last_half_max\":\(decimal(residentLastHalfMaximum, places: 2)),"
            + "\"last_half_slope_mib_per_hour\":\(decimal(residentLastHalfSlopePerHour, places: 3))},"
            + "\"descriptors\":{\"low\":\(descriptorsMinimum),\"high\":\(descriptorsMaximum)},"
            + "\"threads\":{\"low\":\(threadsMinimum),\"high\":\(threadsMaximum)},"
            + "\"errors\":\(errors),\"expected_errors\":\(expectedErrors),\"calls\":\(calls),\"missed_ticks\":\(missedTicks),"
            + "\"late_p99_us_worst\":\(decimal(latenessP99Maximum)),\"late_max_us\":\(decimal(latenessMaximum))}"
    }
}

/// A number for JSON with `places` decimals, or null when it is not finite.
func decimal(_ value: Double, places: Int = 1) -> String {
    guard value.isFinite else { return "null" }
    let scale = pow(10, Double(places))
    return String((value * scale).rounded() / scale)
}
