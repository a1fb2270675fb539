import DockctlProgram

// The program itself is the library DockctlProgram, which dockd's binary also carries: the package
// installs one binary under the four names (see Sources/Programs/dockd/main.swift).
DockctlMain.run(Array(CommandLine.arguments.dropFirst()))
