// swift-tools-version: 6.2
import PackageDescription

/// Settings every target of ours builds with: Swift 6 language mode (set package-wide below),
/// explicit `any`, imports that must be declared where they are used, and no warnings tolerated.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "dockd",
    products: [
        .library(name: "DockProtocol", targets: ["DockProtocol"]),
        .library(name: "VISCAProtocol", targets: ["VISCAProtocol"]),
        .library(name: "V4L2Protocol", targets: ["V4L2Protocol"]),
        .library(name: "DockTracking", targets: ["DockTracking"]),
        .library(name: "DockSimulator", targets: ["DockSimulator"]),
        .library(name: "DockLinks", targets: ["DockLinks"]),
        .library(name: "DockPolicy", targets: ["DockPolicy"]),
        .executable(name: "dockwire", targets: ["dockwire"]),
        .executable(name: "docksim", targets: ["docksim"]),
        .executable(name: "dockd", targets: ["dockd"]),
        .executable(name: "dockctl", targets: ["dockctl"]),
        .executable(name: "dockbench", targets: ["dockbench"]),
        .executable(name: "dockd-vision", targets: ["dockd-vision"]),
        .library(name: "DockClient", targets: ["DockClient"]),
        // The emulated UVC camera's LD_PRELOAD library (docksim --preload-library prints its path).
        .library(name: "dockd-uvc-preload", type: .dynamic, targets: ["CUVCPreload"]),
    ],
    targets: [
        // Pure: the version every program and the package show (one constant).
        .target(name: "DockVersion", path: "Sources/Core/DockVersion", swiftSettings: strictSettings),

        // Pure: the numbers every part shares — a duration's seconds and back (one conversion),
        // and the ranges a setting's numbers may take. Standard library only.
        .target(name: "DockNumbers", path: "Sources/Core/DockNumbers", swiftSettings: strictSettings),

        // Pure: options declared once (name, value, range, help), and from them the parser, the
        // help and the shell completions of every program.
        .target(name: "DockOptions", dependencies: ["DockNumbers"], path: "Sources/Core/DockOptions", swiftSettings: strictSettings),

        // Pure: the log levels (syslog's), one type for the host's policy and the daemon's logger.
        .target(name: "DockLogLevel", path: "Sources/Core/DockLogLevel", swiftSettings: strictSettings),

        // Pure: the dock serial protocol (Protocol/dock-serial.md). Standard library only.
        .target(name: "DockProtocol", path: "Sources/Core/DockProtocol", swiftSettings: strictSettings),
        // dockd's one JSON reader, for the API and every file it reads; pure, imports nothing.
        .target(name: "DockJSON", path: "Sources/Core/DockJSON", swiftSettings: strictSettings),

        // Pure: Sony VISCA (Protocol/visca.md) — commands, replies, the serial/TCP packet decoder,
        // VISCA over IP's header, speed tables and camera profiles (JSON, through DockJSON).
        .target(name: "VISCAProtocol", dependencies: ["DockJSON"], path: "Sources/Core/VISCAProtocol", swiftSettings: strictSettings),

        // Pure: V4L2 for UVC PTZ webcams (Protocol/uvc.md) — control ids, VIDIOC_* numbers from
        // the struct sizes, struct images, the ioctl-over-bytes framing, camera models (JSON,
        // through DockJSON).
        .target(name: "V4L2Protocol", dependencies: ["DockJSON"], path: "Sources/Core/V4L2Protocol", swiftSettings: strictSettings),

        // Pure: the API's vocabulary, shared by the daemon and its clients — what a request
        // carries (observations, normalised image geometry, camera information, motions, limits)
        // and what a client is told (replies, errors, events, the one status). Over DockJSON only
        // (an error a client does not know keeps its JSON parameters).
        .target(name: "DockVocabulary", dependencies: ["DockJSON"], path: "Sources/Core/DockVocabulary", swiftSettings: strictSettings),

        // Pure: the tracker — measurement model, filters, association, fusion, primary choice,
        // framing — over the vocabulary's observations.
        .target(name: "DockTracking", dependencies: ["DockNumbers", "DockVocabulary"], path: "Sources/Core/DockTracking", swiftSettings: strictSettings),

        // Pure: the accessory session, motion, control arbitration and animations.
        .target(name: "DockLinks", dependencies: ["DockProtocol", "VISCAProtocol", "V4L2Protocol", "DockNumbers", "DockVocabulary"], path: "Sources/Core/DockLinks", swiftSettings: strictSettings),

        // Pure: the host's policy — session, motion, control, tracking, indicator and what
        // clients hear — as one value type that the daemon, the evaluation and the tests drive.
        .target(name: "DockPolicy", dependencies: ["DockLinks", "DockLogLevel", "DockProtocol", "DockTracking", "DockVocabulary", "DockNumbers"], path: "Sources/Core/DockPolicy", swiftSettings: strictSettings),

        // Pure: the Varlink API — framing, typed calls, replies and events, the io.dockd.Dock
        // interface.
        .target(name: "DockAPI", dependencies: ["DockJSON", "DockNumbers", "DockVocabulary"], path: "Sources/Core/DockAPI",
                swiftSettings: strictSettings),

        // Pure: the simulated dock (firmware model and motor physics), a simulated VISCA camera
        // over the same physics, and their world.
        .target(
            name: "DockSimulator",
            dependencies: ["CFrameKernel", "DockJSON", "DockProtocol", "VISCAProtocol", "V4L2Protocol", "DockNumbers", "DockVocabulary"],
            path: "Sources/Simulation/DockSimulator",
            swiftSettings: strictSettings
        ),

        // I/O, the least a client needs: file descriptors, system errors, Unix sockets and where
        // dockd's control socket is (no serial or udev library, so an app linking DockClient needs
        // neither).
        .target(name: "DockSockets", dependencies: ["CLinux"], path: "Sources/Shell/DockSockets", swiftSettings: strictSettings),
        // I/O: serial ports, pseudo-terminals, udev, polling, the event loop, clocks and signals.
        .target(name: "DockSystem", dependencies: ["CLinux", "CSerialPort", "CUdev", "DockLogLevel", "DockSockets"], path: "Sources/Shell/DockSystem", swiftSettings: strictSettings),
        // Linux headers the Glibc module lacks (signalfd); no library to link.
        .systemLibrary(name: "CLinux", path: "Sources/CShims/CLinux"),

        // The simulated dock on a pseudo-terminal, for the daemon and for firmware-free testing;
        // with --camera it also plays the camera app over dockd's API.
        .target(
            name: "DocksimProgram",
            dependencies: ["DockSimulator", "DockSystem", "DockProtocol", "DockTracking", "DockClient", "DockAPI", "DockOptions",
                           "DockLinks", "VISCAProtocol", "V4L2Protocol", "DockVersion", "CFrameKernel", "CJPEGEncoder", "DockNumbers",
                           "DockVocabulary", "DockSockets"],
            path: "Sources/Programs/DocksimProgram",
            swiftSettings: strictSettings
        ),
        .executableTarget(name: "docksim", dependencies: ["DocksimProgram"], path: "Sources/Programs/docksim", swiftSettings: strictSettings),

        // I/O: the running service — sessions over transports, the control loop, signals, systemd.
        .target(
            name: "DockDaemon",
            dependencies: ["DockAPI", "DockLinks", "DockPolicy", "DockLogLevel", "DockOptions", "DockProtocol", "DockSimulator", "DockSystem", "DockTracking",
                           "VISCAProtocol", "V4L2Protocol", "DockVersion", "DockNumbers", "DockVocabulary", "DockJSON", "DockSockets"], path: "Sources/Shell/DockDaemon",
            swiftSettings: strictSettings
        ),

        // Pure: the vision service's logic — its settings, the camera's format chosen, frames
        // checked, capture times judged, the detectors' schedule, Track built from detections.
        .target(name: "DockVision", dependencies: ["DockOptions", "DockVocabulary", "DockNumbers"], path: "Sources/Core/DockVision", swiftSettings: strictSettings),
        // I/O: the vision service — V4L2 capture, OpenCV's detectors (through CVision), the feed to dockd.
        .target(
            name: "VisionService",
            dependencies: ["CV4L2", "CVision", "DockAPI", "DockClient", "DockLogLevel", "DockSystem", "DockVision", "DockVocabulary", "DockSockets"],
            path: "Sources/Shell/VisionService", swiftSettings: strictSettings
        ),
        // The kernel's V4L2 structs and request numbers, for the vision service's capture.
        .systemLibrary(name: "CV4L2", path: "Sources/CShims/CV4L2"),
        // The vision service: a camera's frames to faces and people, sent to dockd with Track.
        .executableTarget(
            name: "dockd-vision", dependencies: ["VisionService", "DockClient", "DockLogLevel", "DockVision", "DockOptions", "DockSystem", "DockVersion"],
            path: "Sources/Programs/dockd-vision", swiftSettings: strictSettings
        ),

        // The vision service's detectors measured on still frames (BENCHMARKS.md; not installed).
        .executableTarget(
            name: "visionbench", dependencies: ["VisionService", "DockVision", "DockVocabulary"], path: "Sources/Programs/visionbench",
            swiftSettings: strictSettings
        ),

        // I/O: the Swift client library, DockKit-shaped, over the Varlink socket.
        .target(name: "DockClient", dependencies: ["DockAPI", "DockSockets", "DockNumbers", "DockVocabulary", "DockJSON"], path: "Sources/Clients/DockClient", swiftSettings: strictSettings),
        // The example app of DockClient's documentation (written against it alone; ClientTests runs it).
        .executableTarget(name: "dockclient-example", dependencies: ["DockClient"], path: "examples/FollowMe",
                          swiftSettings: strictSettings),

        // The command-line client (and the tracker's offline replay).
        .target(
            name: "DockctlProgram",
            dependencies: ["DockClient", "DockAPI", "DockOptions", "DockSystem", "DockTracking", "DockVersion", "DockNumbers", "DockVocabulary",
                           "DockJSON", "DockSockets"],
            path: "Sources/Programs/DockctlProgram",
            swiftSettings: strictSettings
        ),
        .executableTarget(name: "dockctl", dependencies: ["DockctlProgram"], path: "Sources/Programs/dockctl", swiftSettings: strictSettings),

        // The daemon; its binary is also dockctl, docksim and dockwire by those names (the
        // package installs it once, under the four names).
        .executableTarget(
            name: "dockd",
            dependencies: ["DockDaemon", "DockSockets", "DockSystem", "DockVersion", "DockctlProgram", "DocksimProgram", "DockwireProgram"],
            path: "Sources/Programs/dockd",
            swiftSettings: strictSettings
        ),

        // Benchmarks, run in release builds (BENCHMARKS.md).
        .executableTarget(
            name: "dockbench",
            dependencies: ["DockClient", "DockAPI", "DockOptions", "DockSystem", "DockTracking", "DockEvaluation", "DockSimulator",
                           "SimulatedSerialDock", "CAllocationCounter", "DockProtocol", "DockVersion", "DockNumbers", "DockVocabulary", "DockJSON", "DockSockets"], path: "Sources/Programs/dockbench",
            swiftSettings: strictSettings
        ),
        // The tracker and the baseline in closed loop with the simulator, in virtual time (pure).
        .target(
            name: "DockEvaluation",
            dependencies: ["DockLinks", "DockPolicy", "DockProtocol", "DockSimulator", "DockTracking", "VISCAProtocol", "V4L2Protocol", "DockNumbers", "DockVocabulary"], path: "Sources/Core/DockEvaluation",
            swiftSettings: strictSettings
        ),
        // I/O: the simulated dock on a pseudo-terminal, owned by a test or benchmark that times
        // what dockd puts on the line.
        .target(name: "SimulatedSerialDock", dependencies: ["DockProtocol", "DockSimulator", "DockSystem", "DockSockets"], path: "Sources/Simulation/SimulatedSerialDock",
                swiftSettings: strictSettings),
        // The emulated webcam's pixel work (pure C, no I/O): the plate through a homography, people
        // composited, YUYV packed; and the footage cutter's passes. Optimised in every build, so a
        // debug docksim still draws 30 frames a second.
        .target(name: "CFrameKernel", path: "Sources/Simulation/CFrameKernel", cSettings: [.unsafeFlags(["-O2"])]),
        // The emulated webcam's Motion-JPEG frames, with Debian's libjpeg-turbo.
        .target(
            name: "CJPEGEncoder", dependencies: ["CFrameKernel"], path: "Sources/CShims/CJPEGEncoder",
            linkerSettings: [.linkedLibrary("jpeg")]),
        // The emulated UVC camera's preload library: open/openat/close/ioctl on a docksim socket.
        .target(name: "CUVCPreload", path: "Sources/Simulation/UVCPreload", linkerSettings: [.linkedLibrary("dl")]),
        // Counts the process's heap allocations, for dockbench's no-allocation check.
        .target(name: "CAllocationCounter", path: "Sources/CShims/CAllocationCounter"),

        // Command-line decoder and encoder of dock frames, for firmware authors and for captures.
        .target(
            name: "DockwireProgram", dependencies: ["DockOptions", "DockProtocol", "DockVersion"], path: "Sources/Programs/DockwireProgram",
            swiftSettings: strictSettings
        ),
        .executableTarget(name: "dockwire", dependencies: ["DockwireProgram"], path: "Sources/Programs/dockwire", swiftSettings: strictSettings),

        // C++: OpenCV's detectors, decoding and colour conversion behind a C interface that
        // dockd-vision calls (OpenCV has no C interface since 4.0).
        .target(
            // Debian's OpenCV 4.6 (libopencv-dev): its headers (`pkg-config --cflags opencv4`), and
            // the five libraries the shim calls, by name: pkg-config's --libs names all 55 of
            // Debian's, and each would become a dependency of the package (VTK, Qt, HDF5...).
            name: "CVision", path: "Sources/CShims/CVision",
            cxxSettings: [.unsafeFlags(["-I/usr/include/opencv4"])],
            linkerSettings: ["opencv_dnn", "opencv_objdetect", "opencv_imgcodecs", "opencv_imgproc", "opencv_core"].map { .linkedLibrary($0) }
        ),

        // C libraries from Debian, used by the I/O layer (serial ports and udev hot-plug).
        .systemLibrary(
            name: "CSerialPort", path: "Sources/CShims/CSerialPort",
            pkgConfig: "libserialport",
            providers: [.apt(["libserialport-dev"])]
        ),
        .systemLibrary(
            name: "CUdev", path: "Sources/CShims/CUdev",
            pkgConfig: "libudev",
            providers: [.apt(["libudev-dev"])]
        ),

        .testTarget(
            name: "DockProtocolTests",
            dependencies: ["DockProtocol"],
            swiftSettings: strictSettings
        ),
        .testTarget(name: "DockJSONTests", dependencies: ["DockJSON"], swiftSettings: strictSettings),
        .testTarget(name: "DockNumbersTests", dependencies: ["DockNumbers"], swiftSettings: strictSettings),
        .testTarget(
            name: "VISCAProtocolTests",
            dependencies: ["VISCAProtocol"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "V4L2ProtocolTests",
            dependencies: ["V4L2Protocol"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DockLinksTests",
            dependencies: ["DockLinks", "DockSimulator", "DockProtocol", "VISCAProtocol", "V4L2Protocol", "DockNumbers", "DockVocabulary"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DockPolicyTests",
            dependencies: ["DockPolicy", "DockLinks", "DockLogLevel", "DockProtocol", "DockSimulator", "DockTracking", "VISCAProtocol", "V4L2Protocol", "DockNumbers", "DockVocabulary"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DockTrackingTests",
            dependencies: ["DockTracking", "DockSimulator", "DockNumbers", "DockVocabulary"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DockEvaluationTests",
            dependencies: ["DockEvaluation", "DockTracking", "DockSimulator", "DockLinks", "DockPolicy", "VISCAProtocol", "V4L2Protocol", "DockVocabulary",
                           "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DockSimulatorTests",
            dependencies: ["DockSimulator", "DockProtocol", "DockTracking", "VISCAProtocol", "V4L2Protocol", "DockNumbers", "DockVocabulary",
                           "TestSupport"],
            swiftSettings: strictSettings
        ),
        .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: strictSettings),
        .testTarget(
            name: "DocksimTests",
            dependencies: ["docksim", "DocksimProgram", "dockd", "DockAPI", "DockProtocol", "DockSimulator", "DockSystem", "TestSupport",
                           "V4L2Protocol", "DockVocabulary", "DockJSON", "DockSockets"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DaemonTests",
            dependencies: ["CLinux", "dockd", "docksim", "DockDaemon", "DockPolicy", "DockLinks", "DockProtocol", "DockSimulator", "DockSystem",
                           "SimulatedSerialDock", "TestSupport", "DockNumbers", "DockVocabulary", "DockSockets", "DockTracking", "V4L2Protocol"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DockAPITests",
            dependencies: ["DockAPI", "DockVocabulary", "DockJSON"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ClientTests",
            dependencies: ["dockctl", "DockctlProgram", "dockd", "dockbench", "dockclient-example", "DockClient", "DockAPI", "DockOptions",
                           "DockSimulator", "DockTracking", "TestSupport", "DockNumbers", "DockVocabulary", "DockJSON"],
            swiftSettings: strictSettings
        ),
        // The manual pages, the shell completions and the version against the programs' own word.
        .testTarget(
            name: "DocumentationTests",
            dependencies: ["dockd", "dockctl", "docksim", "dockwire", "dockbench", "DockDaemon", "DockVersion", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DockOptionsTests",
            dependencies: ["DockOptions", "DockNumbers"],
            swiftSettings: strictSettings
        ),
        .testTarget(name: "DockVisionTests", dependencies: ["DockVision", "DockOptions", "DockVocabulary"], swiftSettings: strictSettings),
        .testTarget(
            name: "VisionServiceTests",
            dependencies: ["VisionService", "DockVision", "DockOptions", "CVision", "dockd-vision", "dockd", "docksim", "dockctl", "TestSupport", "DockVocabulary", "DockSystem", "DockLogLevel"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DockwireTests",
            dependencies: ["dockwire", "DockwireProgram", "DockProtocol", "TestSupport"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
