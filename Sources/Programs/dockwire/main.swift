import DockProtocol
import DockVersion
import Foundation

/// Writes to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

let command: Command
do {
    command = try Command.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    printError("dockwire: \(error.message)\n\(Command.usage)")
    exit(64)
}

switch command {
case .help(let topic):
    guard let text = Command.helpText(topic: topic) else {
        printError("dockwire: no help for '\(topic ?? "")'\n\(Command.usage)")
        exit(64)
    }
    print(text)
case .version:
    print(DockVersion.line(program: "dockwire"))
case .example:
    for step in ExampleSession.steps {
        let arrow = step.direction == .hostToAccessory ? "host -> dock" : "dock -> host"
        let bytes = try FrameEncoder.encode(step.frame)
        print("\(arrow)  \(step.frame)")
        print("    \(Hex.format(bytes))")
    }
case .decode(let path, let isRaw):
    let data: Data
    if let path {
        guard let contents = FileManager.default.contents(atPath: path) else {
            printError("dockwire: cannot read '\(path)'")
            exit(1)
        }
        data = contents
    } else {
        data = FileHandle.standardInput.readDataToEndOfFile()
    }
    let bytes: [UInt8]
    if isRaw {
        bytes = Array(data)
    } else {
        do {
            bytes = try Hex.parse(String(decoding: data, as: UTF8.self))
        } catch {
            printError("dockwire: \(path ?? "standard input"): \(error)")
            exit(1)
        }
    }
    var decoder = FrameDecoder()
    decoder.decode(bytes) { result in
        switch result {
        case .success(let frame): print(frame)
        case .failure(let error): print("error: \(error.name): \(error)")
        }
    }
    if decoder.bufferedCount > 0 {
        print("incomplete: \(decoder.bufferedCount) bytes after the last delimiter")
    }
}
