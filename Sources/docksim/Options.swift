/// What `docksim` was asked to do, parsed from its arguments without side effects.
struct Options: Equatable {
    /// Where to put the link to the simulated serial port.
    var ptyPath: String
    /// The scenario file, or nil for the built-in scene.
    var scenarioPath: String?
    /// Where to write the JSON report, if anywhere.
    var reportPath: String?
    /// Where to write the SVG plot of the run, if anywhere.
    var plotPath: String?
    /// dockd's control socket, when docksim plays the camera app over its API.
    var cameraSocketPath: String?
    /// A seed replacing the scenario's.
    var seed: UInt64?
    /// Fewer messages on standard error.
    var isQuiet = false
    /// Print every frame from the host, and the dock's answers other than telemetry.
    var isTracing = false

    /// The outcome of parsing: options to run with, or a request for help.
    enum Parsed: Equatable {
        case run(Options)
        case help
        case version
    }

    /// A usage error: the tool prints it with the usage and exits 64.
    struct UsageError: Error, Equatable {
        var message: String
    }

    static let usage = "usage: docksim --pty PATH [--scenario FILE] [--report FILE] [--plot FILE.svg] [--camera unix:SOCKET] [--seed N] [--trace] [--quiet]"

    static let help = """
        docksim: a simulated dock on a pseudo-terminal, speaking Protocol/dock-serial.md, so that
        dockd (or any host) can open it like a USB serial port.

        \(usage)

        options:
          --pty PATH        create the dock's serial port and make PATH a symbolic link to it
                            (an existing link there is replaced; PATH is removed at exit)
          --scenario FILE   run a scenario file (format in Simulator/README.md); without it, a
                            person stands 3 m in front of the dock for an hour
          --report FILE     when the run ends, write its report (framing error, faults survived)
                            as JSON to FILE
          --plot FILE.svg   when the run ends, write an SVG plot of it to FILE: the framing error
                            over time against the tolerance, dockd's primary subject ID (with
                            --camera), and the faults as shaded spans; with or without --report
          --camera unix:SOCKET
                            play the camera app over dockd's API on SOCKET (its control socket)
                            during the run: once dockd answers (it may start later; docksim keeps
                            retrying quietly, and again if dockd goes away), turn system tracking
                            on with framing "center" (the report scores the distance from the
                            image centre), send each detection batch with Track when the detector
                            delivers it, and follow dockd's primary subject (GetStatus at 10 Hz)
                            for the report's primary_id_switches and the plot
          --seed N          use seed N instead of the scenario's
          --trace           print each frame from the host with the dock's pose, and each frame
                            the dock sends but telemetry: "t=SECONDS <- FRAME (yaw R pitch R)"
                            and "t=SECONDS -> FRAME", and "t=SECONDS motors moving|still"
          --quiet           print only errors
          --help            show this help
          --version         print docksim's version

        The run ends when the scenario's time is up, or on SIGTERM or SIGINT. An unplug fault closes
        the pseudo-terminal and removes the link; the replug makes a new one behind the same link.

        Exit status: 0 when the run ended, 1 on a system error, 64 on a usage error, 65 when the
        scenario file is unreadable or invalid.
        """

    /// Parses the arguments that follow the program name.
    static func parse(_ arguments: [String]) throws(UsageError) -> Parsed {
        var ptyPath: String?
        var options = Options(ptyPath: "")
        var index = 0
        func value(_ option: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                throw UsageError(message: "\(option) needs a value")
            }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "-h", "--help": return .help
            case "--version": return .version
            case "--pty": ptyPath = try value(argument)
            case "--scenario": options.scenarioPath = try value(argument)
            case "--report": options.reportPath = try value(argument)
            case "--plot": options.plotPath = try value(argument)
            case "--camera":
                let text = try value(argument)
                guard text.hasPrefix("unix:"), text.count > "unix:".count else {
                    throw UsageError(message: "--camera needs unix:SOCKET, the path of dockd's control socket "
                                     + "(e.g. unix:/run/dockd/dockd.sock), got '\(text)'")
                }
                options.cameraSocketPath = String(text.dropFirst("unix:".count))
            case "--seed":
                let text = try value(argument)
                guard let seed = UInt64(text) else { throw UsageError(message: "--seed needs a whole number, got '\(text)'") }
                options.seed = seed
            case "--quiet": options.isQuiet = true
            case "--trace": options.isTracing = true
            default: throw UsageError(message: "unknown argument '\(argument)'")
            }
            index += 1
        }
        guard let ptyPath, !ptyPath.isEmpty else { throw UsageError(message: "--pty PATH is required") }
        options.ptyPath = ptyPath
        return .run(options)
    }
}
