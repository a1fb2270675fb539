import DockLinks
import DockOptions
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
    /// A Pelco-D head of this configuration instead of the dock, when set.
    var pelcoDHead: PelcoDHead.Configuration?
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
    /// With `--score-only`: the camera app sends no boxes (another detector feeds dockd); it only
    /// sets dockd up and follows its primary subject.
    var isScoreOnly = false
    /// A seed replacing the scenario's.
    var seed: UInt64?
    /// Fewer messages on standard error.
    var isQuiet = false
    /// Print every frame from the host, and the dock's answers other than telemetry.
    var isTracing = false
    /// With `--udp-raw`: VISCA packets in datagrams without Sony's header.
    var isRawUDP = false
    /// With `--protocol uvc`: where the webcam's video comes from and what is logged of it.
    var video = VideoOptions()

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

    static let usage =
        "usage: docksim (--pty PATH | --udp HOST:PORT | --tcp HOST:PORT | --v4l2 PATH) [--protocol dock-serial|visca|uvc|pelco-d] [--profile NAME] [--address N] [--position-queries] [--zoom-seconds SECONDS] [--model NAME|FILE] [--scenario FILE] [--report FILE] [--plot FILE.svg] [--camera unix:SOCKET [--score-only]] [--seed N] [--trace] [--quiet]"

    static var help: String {
        """
        docksim: a simulated dock on a pseudo-terminal, speaking Protocol/dock-serial.md, so that
        dockd (or any host) can open it like a USB serial port; or a simulated Sony VISCA PTZ
        camera (Protocol/visca.md) on a pseudo-terminal, on UDP or on TCP; or a simulated Pelco-D
        pan-tilt head (Protocol/pelco-d.md) on a pseudo-terminal.

        \(usage)

        options:
        \(HelpText.optionList(OptionTable.all, column: 22))

        An emulated UVC PTZ webcam (Protocol/uvc.md) with no scenario (no room, no camera app):
          docksim --protocol uvc --v4l2 PATH [--model NAME|FILE] [--eio CONTROL]... [--footage DIR]
                  [--frame-log FILE] [--corrupt-mjpeg N] [--undecodable-format] [--other-clock] [--quiet]
                            serve it on a Unix socket at PATH, answering from the model
                            (Protocol/uvc/NAME.json: generic, obsbot-tiny, insta360-link,
                            logitech-c920); --eio makes a control fail with EIO. Run programs with
                            LD_PRELOAD=$(docksim --preload-library) to see PATH as a V4L2 device;
                            it streams video of the built-in scene (YUYV, MJPEG).
                            --undecodable-format offers only H.264 instead, --other-clock stamps
                            buffers with CLOCK_REALTIME and flags no clock (bad input for a program).
          docksim --preload-library
                            print the preload library's absolute path
          docksim --make-footage DIR [--video FILE] [--quiet]
                            make the webcam's footage (for --footage DIR) from a real video, by
                            default Debian's vtest.avi, with ffmpeg: a background plate and six
                            people cut from it

        The run ends when the scenario's time is up, or on SIGTERM or SIGINT. An unplug fault closes
        the pseudo-terminal and removes the link; the replug makes a new one behind the same link.

        Exit status: 0 when the run ended, 1 on a system error, 64 on a usage error, 65 when the
        scenario file is unreadable or invalid.
        """
    }

    /// Parses the arguments that follow the program name.
    static func parse(_ arguments: [String]) throws(UsageError) -> Parsed {
        typealias T = OptionTable
        let parsed: ParsedOptions
        do throws(OptionError) {
            parsed = try OptionParser.parse(arguments, options: T.all)
        } catch {
            throw UsageError(message: error.message)
        }
        if parsed.flag(T.help) { return .help }
        if parsed.flag(T.version) { return .version }
        if let word = parsed.words.first { throw UsageError(message: "unknown argument '\(word)'") }
        func address(_ option: Option) throws(UsageError) -> NetworkAddress? {
            guard let text = parsed.text(option) else { return nil }
            guard let address = NetworkAddress(text) else {
                throw UsageError(message: "\(option.name) needs HOST:PORT (e.g. 127.0.0.1:52381), got '\(text)'")
            }
            return address
        }
        let endpoints: [Endpoint?] = [
            parsed.text(T.pty).map(Endpoint.pty), try address(T.udp).map(Endpoint.udp),
            try address(T.udpRaw).map(Endpoint.udp), try address(T.tcp).map(Endpoint.tcp),
            parsed.text(T.v4l2).map(Endpoint.v4l2),
        ]
        guard endpoints.compactMap({ $0 }).count <= 1 else {
            throw UsageError(message: "give one of --pty, --udp, --udp-raw, --tcp and --v4l2")
        }
        let endpoint = endpoints.compactMap { $0 }.first
        // The option's choices are the protocols' names: read once, into the enum.
        let accessoryProtocol = parsed.text(T.accessoryProtocol).flatMap(AccessoryProtocol.init(name:)) ?? .dockSerial
        let profileName = parsed.text(T.profile) ?? "generic"
        let isRawUDP = parsed.has(T.udpRaw)
        if accessoryProtocol != .pelcoD, parsed.has(T.address) || parsed.flag(T.positionQueries) || parsed.has(T.zoomSeconds) {
            throw UsageError(message: "--address, --position-queries and --zoom-seconds describe a Pelco-D head: add --protocol pelco-d")
        }
        var options = Options(endpoint: .pty(""))
        options.uvcModel = parsed.text(T.model)
        options.scenarioPath = parsed.text(T.scenario)
        options.reportPath = parsed.text(T.report)
        options.plotPath = parsed.text(T.plot)
        if let text = parsed.text(T.camera) {
            guard text.hasPrefix("unix:"), text.count > "unix:".count else {
                throw UsageError(
                    message: "--camera needs unix:SOCKET, the path of dockd's control socket "
                        + "(e.g. unix:/run/dockd/dockd.sock), got '\(text)'")
            }
            options.cameraSocketPath = String(text.dropFirst("unix:".count))
        }
        options.isScoreOnly = parsed.flag(T.scoreOnly)
        if options.isScoreOnly, options.cameraSocketPath == nil {
            throw UsageError(message: "--score-only follows dockd's primary subject: add --camera unix:SOCKET")
        }
        if let text = parsed.text(T.seed) {
            guard let seed = UInt64(text) else { throw UsageError(message: "--seed needs a whole number, got '\(text)'") }
            options.seed = seed
        }
        options.isQuiet = parsed.flag(T.quiet)
        options.isTracing = parsed.flag(T.trace)
        options.video = try VideoOptions(parsed)
        guard let endpoint else { throw UsageError(message: "--pty PATH (or, for a VISCA camera, --udp or --tcp) is required") }
        if case .pty(let path) = endpoint, path.isEmpty { throw UsageError(message: "--pty needs a path") }
        options.endpoint = endpoint
        options.isRawUDP = isRawUDP
        if case .v4l2(let path) = endpoint, path.isEmpty { throw UsageError(message: "--v4l2 needs a path") }
        switch accessoryProtocol {
        case .uvc:
            guard case .v4l2 = endpoint else { throw UsageError(message: "--protocol uvc serves the webcam on --v4l2 PATH") }
            options.uvcModel = options.uvcModel ?? "generic"
        case .digital:
            // Not among the option's choices: a digital crop has no wire to serve.
            throw UsageError(
                message: "--protocol digital has no accessory to emulate: dockd --protocol digital crops a fixed camera itself")
        case .dockSerial, .visca, .pelcoD:
            if options.video != VideoOptions() {
                throw UsageError(
                    message: "--footage, --frame-log and --corrupt-mjpeg are the webcam's video: add --protocol uvc --v4l2 PATH")
            }
            if case .v4l2 = endpoint { throw UsageError(message: "--v4l2 serves a UVC webcam: add --protocol uvc") }
            if options.uvcModel != nil { throw UsageError(message: "--model names a UVC webcam's model: add --protocol uvc --v4l2 PATH") }
        }
        switch accessoryProtocol {
        case .visca:
            guard let profile = VISCAProfile.named(profileName) else {
                let names = VISCAProfile.builtIn.map(\.name).joined(separator: ", ")
                throw UsageError(message: "--profile: no profile '\(profileName)' (there are \(names))")
            }
            options.viscaProfile = profile
        case .pelcoD:
            guard case .pty = endpoint else { throw UsageError(message: "--protocol pelco-d serves the head on --pty PATH") }
            var head = PelcoDHead.Configuration()
            if let text = parsed.text(T.address) {
                guard let address = UInt8(text), address >= 1 else {
                    throw UsageError(message: "--address needs a whole number from 1 to 255, got '\(text)'")
                }
                head.address = address
            }
            head.answersPositionQueries = parsed.flag(T.positionQueries)
            if let text = parsed.text(T.zoomSeconds) {
                guard let seconds = Double(text), seconds > 0, seconds <= 60 else {
                    throw UsageError(message: "--zoom-seconds needs a number of seconds above 0 and at most 60, got '\(text)'")
                }
                head.zoomFullTravel = .milliseconds(Int64((seconds * 1000).rounded()))
            }
            options.pelcoDHead = head
        case .dockSerial, .uvc, .digital:
            switch endpoint {
            case .pty, .v4l2: break
            case .udp, .tcp: throw UsageError(message: "--udp, --udp-raw and --tcp serve a VISCA camera: add --protocol visca")
            }
        }
        return .run(options)
    }
}

/// The webcam's video options (`--footage`, `--frame-log`, `--corrupt-mjpeg`), with or without a
/// scenario.
struct VideoOptions: Equatable {
    /// The footage directory; nil: the test pattern.
    var footagePath: String?
    /// Where to log each frame drawn, if anywhere.
    var frameLogPath: String?
    /// Damage every N-th Motion-JPEG frame, when set.
    var corruptEvery: Int?

    init() {}

    /// The options as parsed.
    init(_ parsed: ParsedOptions) throws(Options.UsageError) {
        footagePath = parsed.text(OptionTable.footage)
        frameLogPath = parsed.text(OptionTable.frameLog)
        if let text = parsed.text(OptionTable.corruptMJPEG) {
            guard let every = Int(text), every >= 1 else {
                throw Options.UsageError(message: "--corrupt-mjpeg needs a whole number of at least 1, got '\(text)'")
            }
            corruptEvery = every
        }
    }
}
