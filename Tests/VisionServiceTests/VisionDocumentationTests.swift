import DockOptions
import DockVision
import Foundation
import TestSupport
import Testing

/// dockd-vision's manual page, settings file and unit against its own option table.
@Suite struct VisionDocumentationTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    /// The header of the installed settings file.
    static let templateHeader = [
        "/etc/dockd/vision.conf: dockd-vision's settings (dockd-vision(8)), one 'key = value' a line.",
        "Every setting is here, commented out at its default; each is also a flag (--key value), which wins.",
        "systemctl restart 'dockd-vision@*' applies a change.",
    ]

    @Test func thePageDefinesEverySettingAtItsDefault() throws {
        let page = try Self.text("docs/man/dockd-vision.8.scd")
        for option in VisionOptions.settings {
            let key = String(option.name.dropFirst(2))
            let line = "*\(key)* = _\(option.placeholder.isEmpty ? "VALUE" : option.placeholder)_, *\(option.name)*"
            #expect(page.contains(line), "dockd-vision(8) defines \(key)")
            let defaultText = option.defaultText.map { $0.isEmpty ? "empty" : $0 } ?? "none"
            let start = try #require(page.range(of: line))
            let definition = page[start.upperBound...].prefix { $0 != "*" }
            #expect(definition.contains("Default: \(defaultText)."), "\(key): \(definition)")
        }
        for option in [VisionOptions.config, VisionOptions.completions, VisionOptions.help, VisionOptions.version] {
            #expect(page.contains("*\(option.name)*"), "\(option.name)")
        }
        let scdoc = Process()
        scdoc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        scdoc.arguments = ["scdoc"]
        let input = Pipe(), output = Pipe()
        scdoc.standardInput = input
        scdoc.standardOutput = output
        scdoc.standardError = output
        try scdoc.run()
        input.fileHandleForWriting.write(Data(page.utf8))
        try input.fileHandleForWriting.close()
        _ = output.fileHandleForReading.readDataToEndOfFile()
        scdoc.waitUntilExit()
        #expect(scdoc.terminationStatus == 0)
    }

    @Test func theInstalledSettingsFileIsEverySettingAtItsDefault() throws {
        let file = try Self.text("systemd/dockd-vision.conf")
        let expected = SettingsFile.template(header: Self.templateHeader, options: VisionOptions.settings)
        if file != expected {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("dockd-vision.conf.expected")
            try expected.write(to: path, atomically: true, encoding: .utf8)
            Issue.record("systemd/dockd-vision.conf is not the settings' template: see \(path.path)")
        }
    }

    func analyze(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["systemd-analyze"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func theUnitVerifiesAndIsHardened() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vision-units-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let unit = try Self.text("systemd/dockd-vision@.service")
        #expect(unit.contains("ExecStart=/usr/local/bin/dockd-vision --device /dev/%I --socket /run/dockd/dockd.sock"))
        // Given no device but the cameras.
        let devices = unit.split(separator: "\n").filter { $0.hasPrefix("DeviceAllow=") || $0.hasPrefix("DevicePolicy=") }
        #expect(devices == ["DevicePolicy=closed", "DeviceAllow=char-video4linux rw"])
        let instance = directory.appendingPathComponent("dockd-vision@video0.service")
        try unit.replacingOccurrences(
            of: "ExecStart=/usr/local/bin/dockd-vision", with: "ExecStart=\(try ChildProcess.executable("dockd-vision").path)"
        )
        .write(to: instance, atomically: true, encoding: .utf8)
        let verify = try analyze(["verify", "--man=no", instance.path])
        #expect(verify.status == 0, "\(verify.output)")
        #expect(!verify.output.contains("Unknown"), "\(verify.output)")
        let security = try analyze(["security", "--offline=true", instance.path])
        let line = try #require(security.output.split(separator: "\n").first { $0.contains("Overall exposure level") })
        let score = try #require(line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) })
        #expect(score <= 2.5, "\(line)")
        let deviceLine = try #require(security.output.split(separator: "\n").first { $0.contains("DeviceAllow=") })
        #expect(deviceLine.contains("char-video4linux:rw") && !deviceLine.contains("rtc"), "\(deviceLine)")
        let readme = try Self.text("docs/vision.md")
        #expect(readme.contains("exposure level \(score)"), "docs/vision.md shows the score the unit gets (\(score))")
        let sysusers = try Self.text("systemd/dockd-vision.sysusers")
        #expect(sysusers.contains("m dockd-vision video") && sysusers.contains("m dockd-vision dock"))
        #expect(unit.contains("User=dockd-vision") && unit.contains("SupplementaryGroups=video dock"))
    }
}
