import DockSimulator
import DockSystem
import VISCAProtocol

/// What `docksim` was asked to do, parsed from its arguments without side effects.
struct Options: Equatable {
    /// Where the host reaches the simulated accessory.
    enum Endpoint: Equatable {
        /// A pseudo-terminal, with a symbolic link at this path.
        case pty(String)
        /// A UDP socket bound to this address (a VISCA camera on the network).
        case udp(NetworkAddress)
        /// A TCP listener at this address (raw VISCA on TCP).
        case tcp(NetworkAddress)
        /// A Unix socket at this path, shown as a V4L2 device by the preload library (a UVC webcam).
        case v4l2(String)
    }

    /// Where the host reaches the simulated accessory.
    var endpoint: Endpoint
    /// A Sony VISCA camera of this profile instead of the dock, when set.
    var viscaProfile: VISCAProfile?
    /// With `--protocol uvc`: the webcam's model, a built-in name or a JSON file (read by the caller).
    var uvcModel: String?
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
    /// With `--udp-raw`: VISCA packets in datagrams without Sony's header.
    var isRawUDP = false

    /// How the VISCA camera's bytes travel, from the endpoint.
    var viscaTransport: VISCACamera.Transport {
        switch endpoint {
        case .pty, .tcp, .v4l2: .serial
        case .udp: isRawUDP ? .rawIP : .sonyIP
        }
    }

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

    static let usage = "usage: docksim (--pty PATH | --udp HOST:PORT | --tcp HOST:PORT | --v4l2 PATH) [--protocol dock-serial|visca|uvc] [--profile NAME] [--model NAME|FILE] [--scenario FILE] [--report FILE] [--plot FILE.svg] [--camera unix:SOCKET] [--seed N] [--trace] [--quiet]"

    static let help = """
        docksim: a simulated dock on a pseudo-terminal, speaking Protocol/dock-serial.md, so that
        dockd (or any host) can open it like a USB serial port; or a simulated Sony VISCA PTZ
        camera (Protocol/visca.md) on a pseudo-terminal, on UDP or on TCP.

        \(usage)

        options:
          --pty PATH        create the dock's serial port and make PATH a symbolic link to it
                            (an existing link there is replaced; PATH is removed at exit)
          --protocol P      dock-serial (the default) or visca: a VISCA camera in the dock's
                            place, over the same motor physics and the same room
          --profile NAME    the VISCA camera's profile (Protocol/visca/NAME.json): generic (the
                            default), telycam-tlc-700, sony-evi-d100
          --udp HOST:PORT   with --protocol visca: serve Sony's VISCA over IP (8-byte header,
                            sequence numbers) on a UDP socket bound to HOST:PORT (e.g.
                            127.0.0.1:52381), answering whoever wrote last
          --udp-raw HOST:PORT
                            with --protocol visca: bare VISCA packets in UDP datagrams
          --tcp HOST:PORT   with --protocol visca: raw VISCA on a TCP listener at HOST:PORT
          --v4l2 PATH       with --protocol uvc and --scenario or --camera: a UVC PTZ webcam
                            (Protocol/uvc.md) in the dock's place, in the same room, on a Unix
                            socket at PATH that programs run with
                            LD_PRELOAD=$(docksim --preload-library) see as a V4L2 device; an
                            unplug fault closes its connections (ENODEV) and removes PATH
          --model NAME|FILE the webcam's model (Protocol/uvc/NAME.json: generic, the default,
                            obsbot-tiny, insta360-link, logitech-c920; or a JSON file)
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

        An emulated UVC PTZ webcam (Protocol/uvc.md) with no scenario (no room, no camera app):
          docksim --protocol uvc --v4l2 PATH [--model NAME|FILE] [--eio CONTROL]... [--quiet]
                            serve it on a Unix socket at PATH, answering from the model
                            (Protocol/uvc/NAME.json: generic, obsbot-tiny, insta360-link,
                            logitech-c920); --eio makes a control fail with EIO. Run programs with
                            LD_PRELOAD=$(docksim --preload-library) to see PATH as a V4L2 device.
          docksim --preload-library
                            print the preload library's absolute path

        The run ends when the scenario's time is up, or on SIGTERM or SIGINT. An unplug fault closes
        the pseudo-terminal and removes the link; the replug makes a new one behind the same link.

        Exit status: 0 when the run ended, 1 on a system error, 64 on a usage error, 65 when the
        scenario file is unreadable or invalid.
        """

    /// Parses the arguments that follow the program name.
    static func parse(_ arguments: [String]) throws(UsageError) -> Parsed {
        var endpoint: Endpoint?
        var protocolName = "dock-serial"
        var profileName = "generic"
        var isRawUDP = false
        var options = Options(endpoint: .pty(""))
        func address(_ option: String, _ text: String) throws(UsageError) -> NetworkAddress {
            guard let address = NetworkAddress(text) else {
                throw UsageError(message: "\(option) needs HOST:PORT (e.g. 127.0.0.1:52381), got '\(text)'")
            }
            return address
        }
        func choose(_ chosen: Endpoint) throws(UsageError) {
            guard endpoint == nil else { throw UsageError(message: "give one of --pty, --udp, --udp-raw, --tcp and --v4l2") }
            endpoint = chosen
        }
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
            case "--pty": try choose(.pty(try value(argument)))
            case "--udp": try choose(.udp(try address(argument, try value(argument))))
            case "--udp-raw":
                try choose(.udp(try address(argument, try value(argument))))
                isRawUDP = true
            case "--tcp": try choose(.tcp(try address(argument, try value(argument))))
            case "--v4l2": try choose(.v4l2(try value(argument)))
            case "--model": options.uvcModel = try value(argument)
            case "--protocol":
                protocolName = try value(argument)
                guard ["dock-serial", "visca", "uvc"].contains(protocolName) else {
                    throw UsageError(message: "--protocol needs dock-serial, visca or uvc, got '\(protocolName)'")
                }
            case "--profile": profileName = try value(argument)
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
        guard let endpoint else { throw UsageError(message: "--pty PATH (or, for a VISCA camera, --udp or --tcp) is required") }
        if case .pty(let path) = endpoint, path.isEmpty { throw UsageError(message: "--pty needs a path") }
        options.endpoint = endpoint
        options.isRawUDP = isRawUDP
        if case .v4l2(let path) = endpoint, path.isEmpty { throw UsageError(message: "--v4l2 needs a path") }
        if protocolName == "uvc" {
            guard case .v4l2 = endpoint else { throw UsageError(message: "--protocol uvc serves the webcam on --v4l2 PATH") }
            options.uvcModel = options.uvcModel ?? "generic"
        } else if case .v4l2 = endpoint {
            throw UsageError(message: "--v4l2 serves a UVC webcam: add --protocol uvc")
        } else if options.uvcModel != nil {
            throw UsageError(message: "--model names a UVC webcam's model: add --protocol uvc --v4l2 PATH")
        }
        if protocolName == "visca" {
            guard let profile = VISCAProfile.named(profileName) else {
                let names = VISCAProfile.builtIn.map(\.name).joined(separator: ", ")
                throw UsageError(message: "--profile: no profile '\(profileName)' (there are \(names))")
            }
            options.viscaProfile = profile
        } else if case .pty = endpoint {
        } else if case .v4l2 = endpoint {
        } else {
            throw UsageError(message: "--udp, --udp-raw and --tcp serve a VISCA camera: add --protocol visca")
        }
        return .run(options)
    }
}
