/// dockd's version, written here and nowhere else: every program's `--version`, the Debian
/// package's version (`scripts/package` asks the `dockd` it built), `org.varlink.service.GetInfo`
/// and dockd's log line at start all show this one value.
public enum DockVersion {
    /// The version, `MAJOR.MINOR.PATCH`.
    public static let number = "0.2.0"

    /// What `PROGRAM --version` prints: the program's name and the version, on one line.
    public static func line(program: String) -> String { "\(program) \(number)" }
}
