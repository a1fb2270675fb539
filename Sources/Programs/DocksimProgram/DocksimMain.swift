import DockSimulator
import DockSystem
import DockVersion
import Glibc
import V4L2Protocol

/// docksim, the simulated dock, camera and webcam: one program of dockd's binary
/// (`Sources/Programs/dockd/main.swift`), and the `docksim` executable of the build.
public enum DocksimMain {
    /// Runs docksim with `arguments` (without the program's name), and exits with its status.
    public static func run(_ arguments: [String]) -> Never {
        if let status = MakeFootage.runIfAsked(arguments) { exit(status) }
        if let status = UVCServe.runIfAsked(arguments) { exit(status) }

        let options: Options
        do {
            switch try Options.parse(arguments) {
            case .help:
                print(Options.help)
                exit(0)
            case .version:
                print(DockVersion.line(program: "docksim"))
                exit(0)
            case .run(let parsed):
                options = parsed
            }
        } catch {
            printError("docksim: \(error.message)\n\(Options.usage)")
            exit(64)
        }

        var scenario: Scenario
        if let path = options.scenarioPath {
            guard let data = try? FileContents.read(atPath: path) else {
                printError("docksim: cannot read scenario '\(path)'")
                exit(65)
            }
            do {
                scenario = try Scenario.parse(String(decoding: data, as: UTF8.self))
            } catch {
                printError("docksim: \(path): \(error)")
                exit(65)
            }
        } else {
            scenario = Scenario.defaultScene
        }
        if let seed = options.seed { scenario.seed = seed }
        var webcam: UVCCameraModel?
        if let name = options.uvcModel {
            guard let model = UVCServe.model(named: name) else { exit(64) }
            webcam = model
        }

        let isQuiet = options.isQuiet
        let log: @Sendable (String) -> Void = { message in
            if !isQuiet { printError("docksim: \(message)") }
        }
        if options.cameraSocketPath != nil {
            // A write to a dockd that has gone away must fail with EPIPE, not end docksim.
            signal(SIGPIPE, SIG_IGN)
        }
        do {
            let signals = try TerminationSignals()
            let visca = options.viscaProfile.map { VISCACamera.Configuration(profile: $0, transport: options.viscaTransport) }
            var maker: FrameMaker?
            if webcam != nil {
                let footage: Footage
                do {
                    footage = try Footage.load(directory: options.video.footagePath)
                } catch {
                    printError("docksim: \(error)")
                    exit(1)
                }
                maker = try FrameMaker(footage: footage, frameLogPath: options.video.frameLogPath, corruptEvery: options.video.corruptEvery)
                log("webcam video: \(footage.source)")
            }
            let simulation = Simulation(scenario: scenario, visca: visca, uvc: webcam, pelcoD: options.pelcoDHead)
            var run = try RealTimeRun(simulation: simulation, endpoint: options.endpoint, video: maker, log: log)
            if options.isTracing { run.trace = { printError("docksim: \($0)") } }
            log("scenario \(scenario.name), \(seconds(scenario.duration)) s, seed \(scenario.seed)")
            if let socketPath = options.cameraSocketPath {
                run.cameraApp = CameraApp(
                    socketPath: socketPath, sendsBoxes: !options.isScoreOnly, shot: scenario.shot, log: log)
            }
            let signal = try run.run(signals: signals)
            log(signal.map { "stopped by signal \($0) at \(seconds(run.simulation.now)) s" } ?? "scenario finished")
            if let path = options.reportPath {
                let text = run.report.json(criteria: scenario.criteria)
                guard (try? FileContents.write(Array(text.utf8), toPath: path)) != nil else {
                    printError("docksim: cannot write report '\(path)'")
                    exit(1)
                }
                log("report written to \(path)")
            }
            if let path = options.plotPath {
                guard (try? FileContents.write(Array(RunPlot(report: run.report).svg.utf8), toPath: path)) != nil else {
                    printError("docksim: cannot write plot '\(path)'")
                    exit(1)
                }
                log("plot written to \(path)")
            }
        } catch {
            printError("docksim: \(error)")
            exit(1)
        }
        exit(0)
    }
}
