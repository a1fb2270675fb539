import DockLinks
import DockLogLevel
import DockVocabulary

/// The check on `Track`'s appearance descriptors that only the host can make.
extension HostPolicy {
    /// Whether every appearance descriptor in `batch` has the length of the ones `client` sent
    /// before (the first one sets it, until the client goes away): descriptors of different
    /// lengths are different features, and no distance between them means anything. When one
    /// differs, the whole batch is refused, naming the first such observation's path, nothing of
    /// it reaches the tracker, and the client's length stays as it was.
    mutating func acceptsAppearance(
        _ batch: ObservationBatch, token: RequestToken, from client: ClientID,
        into actions: inout [HostAction]
    ) -> Bool {
        var length = appearanceLengths[client]
        for (index, observation) in batch.observations.enumerated() {
            guard let appearance = observation.appearance else { continue }
            guard let expected = length else {
                length = appearance.count
                continue
            }
            guard appearance.count == expected else {
                let path = "observations[\(index)].appearance"
                log(.debug, "client \(client): \(path) has \(appearance.count) values, its earlier ones \(expected)", into: &actions)
                actions.append(
                    .reply(
                        token,
                        .failure(
                            .invalidParameter(
                                path, reason: "must have \(expected) values, as this client's earlier ones had, got \(appearance.count)"))))
                return false
            }
        }
        appearanceLengths[client] = length
        return true
    }
}
