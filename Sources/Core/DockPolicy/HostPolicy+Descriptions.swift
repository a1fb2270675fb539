public import DockLinks

extension ControlArbiter.Controller: CustomStringConvertible {
    /// How logs and `Watch` name the controller.
    public var description: String {
        switch self {
        case .none: "nobody"
        case .systemTracker: "system tracker"
        case .client(let client, let isExplicit): "client \(client)\(isExplicit ? " (acquired)" : "")"
        case .unattended(let client): "client \(client)'s motion (client gone)"
        }
    }
}

extension Array {
    /// Keeps the last `count` elements.
    mutating func suffixInPlace(_ count: Int) {
        if self.count > count { removeFirst(self.count - count) }
    }
}
