import DockDaemon
import DockSockets
import DockSystem
import DockVersion
import DockctlProgram
import DocksimProgram
import DockwireProgram
import Glibc

// One binary, four programs: the package installs this binary as /usr/sbin/dockd and links
// dockctl, docksim and dockwire to it, which saves three copies of the Swift runtime (stripped,
// each program alone is 8.7 to 12.1 MB, the four in one 12.6 MB: BENCHMARKS.md). The name it
// was started by picks the program; any other name is dockd.
switch CommandLine.arguments.first?.split(separator: "/").last {
case "dockctl": DockctlMain.run(Array(CommandLine.arguments.dropFirst()))
case "docksim": DocksimMain.run(Array(CommandLine.arguments.dropFirst()))
case "dockwire": DockwireMain.run(Array(CommandLine.arguments.dropFirst()))
default: break
}

// Block the termination signals before any thread starts, so that they are only ever read from
// their descriptor and never kill the process mid-write.
let signals: TerminationSignals
do {
    signals = try TerminationSignals()
} catch {
    StandardError.write("dockd: \(error)\n")
    exit(1)
}

// A client that closes its connection while dockd writes to it must cost dockd an EPIPE, not its
// life: SIGPIPE's default action ends the process.
signal(SIGPIPE, SIG_IGN)

let arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessEnvironment.current()
// A normal user's defaults differ from root's in the socket (one they can bind).
let defaults = Configuration(effectiveUserID: geteuid(), environment: environment)
let command: DaemonCommand
do {
    command = try DaemonCommand.parse(arguments, defaults: defaults, readFile: DaemonCommand.readConfigurationFile)
} catch {
    StandardError.write("dockd: \(error)\n")
    if case .usage = error { StandardError.write("\(DaemonCommand.usage)\n") }
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
