import Foundation
import Glibc
import Testing

/// The README's first steps as a new user takes them (issue 45): `scripts/run --help` answers
/// before anything is built or installed, `scripts/run` installs only the build's packages and the
/// README names exactly those, and the manual pages are readable from a checkout as it says.
@Suite struct FirstRunTests {
    /// The packages `scripts/install-deps --build` installs (its `build_packages`).
    static func buildPackages() throws -> [String] {
        let script = try Repository.text("scripts/install-deps")
        let line = try #require(script.split(separator: "\n").first { $0.hasPrefix("build_packages=(") })
        return line.dropFirst("build_packages=(".count).prefix { $0 != ")" }.split(separator: " ").map(String.init)
    }

    @Test func theReadmeNamesExactlyThePackagesScriptsRunInstalls() throws {
        let packages = try Self.buildPackages()
        #expect(packages.count >= 2)
        let readme = try Repository.text("README.md").replacingOccurrences(of: "\n", with: " ")
        let sentence = try #require(readme.range(of: "`scripts/run` only the build's ("), "the README says what scripts/run installs")
        let listed = readme[sentence.upperBound...].prefix { $0 != ")" }
        let named = listed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["`"]) }
        #expect(named == packages, "README: \(listed)")
        let run = try Repository.text("scripts/run")
        #expect(run.contains("scripts/install-deps --build\n"), "scripts/run installs the build's packages only")
    }

    /// `scripts/run --help` with a PATH whose `swift` and `dpkg-query` leave a mark when run: it
    /// prints its help and dockd's (or that dockd is not built yet) and runs neither.
    @Test func scriptsRunHelpAnswersBeforeBuildingOrInstalling() throws {
        let directory =
            "\(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")/run-help-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let mark = directory + "/ran"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for tool in ["swift", "dpkg-query", "apt-get", "sudo"] {
            let path = directory + "/" + tool
            try "#!/bin/sh\necho \(tool) >> \(mark)\nexit 1\n".write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o755)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [Repository.root.appendingPathComponent("scripts/run").path, "--help"]
        process.environment = ["PATH": "\(directory):/usr/bin:/bin", "HOME": directory]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output)")
        #expect(output.hasPrefix("Builds dockd and dockctl"), "\(output)")
        #expect(output.contains("dockd's options"), "\(output)")
        #expect(
            access(mark, F_OK) != 0, "neither built nor installed anything: \((try? String(contentsOfFile: mark, encoding: .utf8)) ?? "")")
    }

    @Test func theReadmeSaysHowToReadTheManualPagesFromAClone() throws {
        let readme = try Repository.text("README.md")
        #expect(readme.contains(#"scdoc < docs/man/dockctl.1.scd \| man -l -"#), "the command (its bar escaped in the table)")
        let packages = try Repository.text("scripts/install-deps")
        #expect(packages.contains("scdoc "), "scdoc is a Debian package scripts/install-deps knows")
        #expect(readme.contains("apt install scdoc"), "and the README says where scdoc comes from")
    }
}
