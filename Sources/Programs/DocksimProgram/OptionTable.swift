import DockLinks
import DockOptions

/// docksim's options, declared once: the parser (`Options.parse`) and the help's option list read
/// them.
enum OptionTable {
    static let pty = Option(
        "--pty", .file, placeholder: "PATH",
        help: """
            create the dock's serial port and make PATH a symbolic link to it (an existing link there is replaced; \
            PATH is removed at exit)
            """)
    static let accessoryProtocol = Option(
        "--protocol", .choice(AccessoryProtocol.allCases.filter(\.hasWire).map(\.name)),
        help: """
            dock-serial (the default), visca: a VISCA camera in the dock's place, over the same motor physics and the \
            same room, uvc: a UVC webcam (with --v4l2), or pelco-d: a Pelco-D pan-tilt head (with --pty)
            """)
    static let profile = Option(
        "--profile", .text, placeholder: "NAME",
        help: """
            the VISCA camera's profile (Protocol/visca/NAME.json): generic (the default), telycam-tlc-700, sony-evi-d100
            """)
    static let address = Option(
        "--address", .text, placeholder: "N",
        help: "with --protocol pelco-d: the head's address on the bus, 1-255 (1 by default); frames for others are ignored")
    static let positionQueries = Option(
        "--position-queries",
        help: """
            with --protocol pelco-d: the head answers the pan and tilt position queries (51, 53) and keeps presets \
            (03, 05, 07); without it, it answers nothing, as most heads
            """)
    static let zoomSeconds = Option(
        "--zoom-seconds", .text, placeholder: "SECONDS",
        help: """
            with --protocol pelco-d: the head has a lens that takes SECONDS (above 0, at most 60) from wide to tele \
            with tele (20) held, and wide (40) moves it back; without it, the zoom bits do nothing
            """)
    static let udp = Option(
        "--udp", .text, placeholder: "HOST:PORT",
        help: """
            with --protocol visca: serve Sony's VISCA over IP (8-byte header, sequence numbers) on a UDP socket bound \
            to HOST:PORT (e.g. 127.0.0.1:52381), answering whoever wrote last
            """)
    static let udpRaw = Option(
        "--udp-raw", .text, placeholder: "HOST:PORT", help: "with --protocol visca: bare VISCA packets in UDP datagrams")
    static let tcp = Option(
        "--tcp", .text, placeholder: "HOST:PORT", help: "with --protocol visca: raw VISCA on a TCP listener at HOST:PORT")
    static let v4l2 = Option(
        "--v4l2", .file, placeholder: "PATH",
        help: """
            with --protocol uvc and --scenario or --camera: a UVC PTZ webcam (Protocol/uvc.md) in the dock's place, \
            in the same room, on a Unix socket at PATH that programs run with LD_PRELOAD=$(docksim --preload-library) \
            see as a V4L2 device; an unplug fault closes its connections (ENODEV) and removes PATH
            """)
    static let model = Option(
        "--model", .text, placeholder: "NAME|FILE",
        help: """
            the webcam's model (Protocol/uvc/NAME.json: generic, the default, obsbot-tiny, insta360-link, \
            logitech-c920; or a JSON file)
            """)
    static let scenario = Option(
        "--scenario", .file, placeholder: "FILE",
        help: """
            run a scenario file (format in docs/simulator.md); without it, a person stands 3 m in front of the dock \
            for an hour
            """)
    static let report = Option(
        "--report", .file, placeholder: "FILE",
        help: """
            when the run ends, write its report (framing error, faults survived) as JSON to FILE
            """)
    static let plot = Option(
        "--plot", .file, placeholder: "FILE.svg",
        help: """
            when the run ends, write an SVG plot of it to FILE: the framing error over time against the tolerance, \
            dockd's primary subject ID (with --camera), and the faults as shaded spans; with or without --report
            """)
    static let camera = Option(
        "--camera", .text, placeholder: "unix:SOCKET",
        help: """
            play the camera app over dockd's API on SOCKET (its control socket) during the run: once dockd answers \
            (it may start later; docksim keeps retrying quietly, and again if dockd goes away), turn system tracking \
            on with framing "center" (the report scores the distance from the image centre), send each detection \
            batch with Track when the detector delivers it, and follow dockd's primary subject (GetStatus at 10 Hz) \
            for the report's primary_id_switches and the plot
            """)
    static let scoreOnly = Option(
        "--score-only",
        help: """
            with --camera: send no boxes; another detector feeds dockd (dockd-vision, examples/detect_video.py, on \
            the webcam's picture). docksim still turns system tracking on with framing "center" and follows dockd's \
            primary subject, and the report scores it against the simulator's own subject positions as usual
            """)
    static let footage = Option(
        "--footage", .file, placeholder: "DIR",
        help: """
            with --protocol uvc: draw the webcam's video from the footage in DIR (made by docksim --make-footage DIR); \
            without it, from a synthetic test pattern
            """)
    static let frameLog = Option(
        "--frame-log", .file, placeholder: "FILE",
        help: """
            with --protocol uvc: write a JSON line to FILE for each video frame drawn (sequence, timestamp, pose, \
            field of view, where each person was drawn), for checking the frames
            """)
    static let corruptMJPEG = Option(
        "--corrupt-mjpeg", .text, placeholder: "N",
        help: """
            with --protocol uvc: scramble every N-th Motion-JPEG frame past its first 64 bytes (a frame no decoder \
            can read, delivered as any other: the driver cannot tell)
            """)
    static let seed = Option("--seed", .text, placeholder: "N", help: "use seed N instead of the scenario's")
    static let trace = Option(
        "--trace",
        help: """
            print each frame from the host with the dock's pose, and each frame the dock sends but telemetry: \
            "t=SECONDS <- FRAME (yaw R pitch R)" and "t=SECONDS -> FRAME", and "t=SECONDS motors moving|still"
            """)
    static let quiet = Option("--quiet", help: "print only errors")
    static let help = Option("--help", help: "show this help", aliases: ["-h"])
    static let version = Option("--version", help: "print docksim's version")

    static let all = [
        pty, accessoryProtocol, profile, address, positionQueries, zoomSeconds, udp, udpRaw, tcp, v4l2, model, footage, frameLog,
        corruptMJPEG, scenario, report, plot, camera, scoreOnly, seed, trace, quiet, help, version,
    ]
}
