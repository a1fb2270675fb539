import DockSystem
import Glibc

extension DaemonCommand {
    /// Reads a configuration file as dockd does, at start and on SIGHUP: its text, or nil when it
    /// does not exist or cannot be read.
    public static func readConfigurationFile(_ path: String) -> String? {
        (try? FileContents.read(atPath: path)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The settings SIGHUP applies: the start-up arguments parsed again by ``parse(_:defaults:readFile:)``,
    /// so with the same checks and the same errors, and with the file they name read again.
    ///
    /// - Parameters:
    ///   - arguments: dockd's arguments, as at start.
    ///   - previousPath: the configuration file the settings in force came from, if any.
    /// - Returns: the new settings and the file they came from.
    /// - Throws: what ``parse(_:defaults:readFile:)`` throws; and, when the file the settings in
    ///   force came from can no longer be read, a configuration error naming it (rather than
    ///   quietly falling back to the defaults).
    public static func reload(
        _ arguments: [String], loadedFrom previousPath: String?, defaults: Configuration,
        readFile: (String) -> String?
    ) throws(Failure) -> (configuration: Configuration, path: String?) {
        switch try parse(arguments, defaults: defaults, readFile: readFile) {
        case .run(let configuration, let path):
            if let previousPath, path == nil {
                throw .configuration(
                    Configuration.Error(
                        location: previousPath, message: "cannot read the configuration file any more (removed?)"))
            }
            return (configuration, path)
        case .help, .version, .listDevices:
            throw .usage("the arguments no longer ask to run the service")
        }
    }
}

extension Daemon {
    /// SIGHUP: the settings parsed again exactly as at start, or nil (logged, with the file and
    /// line or the flag at fault) when they are refused and the settings in force must stay.
    static func reload(
        _ arguments: [String], loadedFrom previousPath: String?, environment: [String: String], log: Logger
    ) -> (configuration: Configuration, path: String?)? {
        do {
            let reloaded = try DaemonCommand.reload(
                arguments, loadedFrom: previousPath,
                defaults: Configuration(effectiveUserID: geteuid(), environment: environment),
                readFile: DaemonCommand.readConfigurationFile)
            return reloaded
        } catch {
            log.error("configuration not reloaded: \(error)")
            return nil
        }
    }
}
