/// What `dockd` was asked to do, parsed from its arguments and configuration file text without
/// side effects.
public enum DaemonCommand: Hashable, Sendable {
    /// Run the service.
    case run(Configuration, configurationPath: String?)
    /// Print the help.
    case help
    /// Print the version.
    case version
    /// Print what udev sees and which device would match.
    case listDevices(Configuration)

    /// The default configuration file.
    public static let defaultConfigurationPath = "/etc/dockd/dockd.conf"

    /// A usage error (exit 64) or a bad setting (exit 78, `EX_CONFIG`).
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        case usage(String)
        case configuration(Configuration.Error)

        public var description: String {
            switch self {
            case .usage(let message): message
            case .configuration(let error): error.description
            }
        }
    }

    /// Parses the arguments over `defaults` (root's unless given; ``Configuration/init(effectiveUserID:environment:)``
    /// gives a normal user's). `readFile` returns a file's text, or nil when it does not exist.
    /// SIGHUP reloads through this same function (``reload(_:loadedFrom:defaults:readFile:)``).
    public static func parse(
        _ arguments: [String], defaults: Configuration = Configuration(), readFile: (String) -> String?
    ) throws(Failure) -> DaemonCommand {
        var path: String? = defaultConfigurationPath
        var isPathExplicit = false
        var remaining: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--config" || argument.hasPrefix("--config=") {
                if argument == "--config" {
                    index += 1
                    guard index < arguments.count else { throw .usage("--config needs a path") }
                    path = arguments[index]
                } else {
                    path = String(argument.dropFirst("--config=".count))
                }
                isPathExplicit = true
                if path == "" { path = nil }
            } else {
                remaining.append(argument)
            }
            index += 1
        }
        if remaining.contains("--help") || remaining.contains("-h") { return .help }
        if remaining.contains("--version") { return .version }

        var configuration = defaults
        var usedPath: String?
        if let path {
            if let text = readFile(path) {
                do {
                    try configuration.apply(fileText: text, path: path)
                } catch {
                    throw .configuration(error)
                }
                usedPath = path
            } else if isPathExplicit {
                throw .usage("cannot read configuration file '\(path)'")
            }
        }
        let rest: [String]
        do {
            rest = try configuration.apply(flags: remaining)
            configuration = try configuration.validated()
        } catch {
            throw .configuration(error)
        }
        var listDevices = false
        for argument in rest {
            switch argument {
            case "--list-devices": listDevices = true
            default: throw .usage("unknown argument '\(argument)'")
            }
        }
        return listDevices ? .listDevices(configuration) : .run(configuration, configurationPath: usedPath)
    }

    /// The first line of `dockd --help`, also printed with usage errors.
    public static let usage = "usage: dockd [--config FILE] [--SETTING VALUE ...] [--list-devices] [--help] [--version]"

    /// The whole help text, with the defaults in force for the user who asks.
    public static func helpText(defaults: Configuration = Configuration()) -> String {
        """
        dockd: drives a motorised pan-tilt camera mount (a USB dock on its serial protocol, a VISCA PTZ camera,
        a UVC PTZ webcam, a Pelco-D head, or the in-process simulated dock) and keeps the subject in frame.

        \(usage)

        Settings come from the configuration file (default \(defaultConfigurationPath), lines of
        'key = value', '#' comments), then from flags, which win. Every key is also a flag.

          --config FILE              read settings from FILE instead (an empty FILE reads none)
          --list-devices             print the devices the chosen protocol can use (USB serial docks; serial
                                     ports for visca and pelco-d; cameras for uvc), * on the one dockd takes; exit
          --help                     show this help
          --version                  print dockd's version and exit

        settings (flag, meaning, [default]):
        \(Configuration.helpLines(defaults: defaults).joined(separator: "\n"))

        The socket's default is /run/dockd/dockd.sock for root, else $XDG_RUNTIME_DIR/dockd.sock
        (/tmp/dockd-UID/dockd.sock, in a directory of mode 0700, when XDG_RUNTIME_DIR is unset).

        Signals: SIGTERM and SIGINT stop the motors and exit; SIGHUP reads the configuration file and
        these arguments again, checked as at start: on any error the settings in force are kept.
        Exit status: 0 after a clean stop, 1 on a failure, 64 on a usage error, 78 on a bad setting.
        """
    }
}
