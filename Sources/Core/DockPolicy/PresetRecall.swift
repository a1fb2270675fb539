import DockLinks

/// An accessory's own preset recall in flight for a client's RecallPreset: its command, and the
/// saved pose's move that goes instead if the accessory refuses the recall.
struct PresetRecall: Hashable, Sendable {
    /// The recall's command.
    var command: CommandID
    /// The saved pose's move.
    var move: AccessoryCommand
}
