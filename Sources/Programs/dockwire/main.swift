import DockwireProgram

// The program itself is the library DockwireProgram, which dockd's binary also carries: the package
// installs one binary under the four names (see Sources/Programs/dockd/main.swift).
DockwireMain.run(Array(CommandLine.arguments.dropFirst()))
