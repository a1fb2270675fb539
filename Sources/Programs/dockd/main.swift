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
    // The whole service runs on this thread, in one event loop: no thread is started, so the
    // signals blocked above stay blocked everywhere.
    exit(
        Daemon.run(
            configuration: configuration, configurationPath: path, arguments: arguments,
            environment: environment, signals: signals))
}
