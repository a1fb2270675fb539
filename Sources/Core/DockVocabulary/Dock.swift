/// The types of `Protocol/io.dockd.Dock.varlink` as values, in both directions: each has the
/// JSON the daemon sends (`json`) and a throwing decoder a client reads it with
/// (`init(json:path:)`), so that no program outside DockAPI spells a field of the wire. Where the
/// vocabulary already has a value that says exactly what the wire says (`NormalizedRect`,
/// `SubjectSummary`), that value is used.
public enum Dock {}
