import DocksimProgram

// The program itself is the library DocksimProgram, which dockd's binary also carries: the package
// installs one binary under the four names (see Sources/Programs/dockd/main.swift).
DocksimMain.run(Array(CommandLine.arguments.dropFirst()))
