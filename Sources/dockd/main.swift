import DockDaemon
import DockSystem
import DockVersion
import Foundation
import Glibc

// Block the termination signals before any thread starts, so that they are only ever read from
// their descriptor and never kill the process mid-write.
let signals: TerminationSignals
do {
    signals = try TerminationSignals()
} catch {
    FileHandle.standardError.write(Data("dockd: \(error)\n".utf8))
    exit(1)
}

// A client that closes its connection while dockd writes to it must cost dockd an EPIPE, not its
// life: SIGPIPE's default action ends the process.
signal(SIGPIPE, SIG_IGN)

let arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessInfo.processInfo.environment
// A normal user's defaults differ from root's in the socket (one they can bind).
let defaults = Configuration(effectiveUserID: geteuid(), environment: environment)
let command: DaemonCommand
do {
    command = try DaemonCommand.parse(arguments, defaults: defaults, readFile: DaemonCommand.readConfigurationFile)
} catch {
    FileHandle.standardError.write(Data("dockd: \(error)\n".utf8))
    if case .usage = error { FileHandle.standardError.write(Data("\(DaemonCommand.usage)\n".utf8)) }
    if case .usage = error { exit(64) }
    exit(78)
}

switch command {
case .help:
    print(DaemonCommand.helpText(defaults: defaults))
case .version:
    print(DockVersion.line(program: "dockd"))
case .listDevices(let configuration):
    print(Daemon.listDevices(configuration))
case .run(let configuration, let path):
    // No top-level await: the concurrency runtime's threads must start after the signals are
    // blocked above, so the service runs in a task and the main thread parks. (Not in
    // dispatchMain(), which unblocks signals on the main thread.)
    Task.detached {
        let status = await Daemon.run(configuration: configuration, configurationPath: path, arguments: arguments,
                                      environment: environment, signals: signals)
        exit(status)
    }
    while true { sleep(3600) }
}
