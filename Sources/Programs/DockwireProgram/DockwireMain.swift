import DockProtocol
import DockVersion
import Glibc

/// Writes to standard error.
func printError(_ message: String) {
    let bytes = Array((message + "\n").utf8)
    _ = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
}

/// Every byte of `descriptor` up to its end (`read(2)`), or nil when a read fails.
func readToEnd(_ descriptor: Int32) -> [UInt8]? {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        if count < 0 { return nil }
        if count == 0 { return bytes }
        bytes.append(contentsOf: chunk[..<count])
    }
}

/// dockwire, the dock frames' decoder and encoder: one program of dockd's binary
/// (`Sources/Programs/dockd/main.swift`), and the `dockwire` executable of the build.
public enum DockwireMain {
    /// Runs dockwire with `arguments` (without the program's name), and exits with its status.
    public static func run(_ arguments: [String]) -> Never {
        let command: Command
        do {
            command = try Command.parse(arguments)
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
                guard let bytes = try? FrameEncoder.encode(step.frame) else {
                    preconditionFailure("an example frame that does not encode: \(step.frame)")
                }
                print("\(arrow)  \(step.frame)")
                print("    \(Hex.format(bytes))")
            }
        case .decode(let path, let isRaw):
            let descriptor = path.map { open($0, O_RDONLY | O_CLOEXEC) } ?? 0
            guard descriptor >= 0, let data = readToEnd(descriptor) else {
                printError("dockwire: cannot read '\(path ?? "standard input")'")
                exit(1)
            }
            let bytes: [UInt8]
            if isRaw {
                bytes = data
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
        exit(0)
    }
}
