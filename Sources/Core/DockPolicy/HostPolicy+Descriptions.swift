import DockLinks

extension Array {
    /// Keeps the last `count` elements.
    mutating func suffixInPlace(_ count: Int) {
        if self.count > count { removeFirst(self.count - count) }
    }
}
