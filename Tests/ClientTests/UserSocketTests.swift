import DockClient
import Foundation
import Glibc
import TestSupport
import Testing

/// A normal user's dockd and dockctl meet at the per-user socket with no flags: `scripts/run` run
/// by a user who is not root serves `$XDG_RUNTIME_DIR/dockd.sock`, and `dockctl status` finds it.
/// As root (CI) the test creates that user; as a normal user it is that user.
@Suite(.serialized, .onTheProcessThreads) struct UserSocketTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let userName = "dockd-test-user"

    /// Runs a command to its end; returns its status and output (both streams).
    @discardableResult
    static func command(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let child = try ChildProcess(
            program: URL(fileURLWithPath: path), arguments,
            exactEnvironment: ProcessInfo.processInfo.environment)
        let result = try child.finish()
        return (result.status, result.output + result.error)
    }

    /// The normal user: the test's own, or, for root, `dockd-test-user` (created when missing).
    static func normalUser() throws -> (userID: UInt32, groupID: UInt32) {
        if geteuid() != 0 { return (geteuid(), getegid()) }
        if getpwnam(userName) == nil {
            let created = try command("/usr/sbin/useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", userName])
            #expect(created.status == 0, "useradd: \(created.output)")
        }
        let entry = try #require(getpwnam(userName), "the user \(userName) exists")
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    /// Runs `program` as the normal user, with only `environment`.
    static func asUser(
        _ user: (userID: UInt32, groupID: UInt32), _ program: String, _ arguments: [String],
        environment: [String: String]
    ) throws -> ChildProcess {
        let exact = environment.map { "\($0.key)=\($0.value)" }
        if geteuid() != 0 {
            return try ChildProcess(
                program: URL(fileURLWithPath: "/usr/bin/env"), ["-i"] + exact + [program] + arguments,
                exactEnvironment: [:])
        }
        return try ChildProcess(
            program: URL(fileURLWithPath: "/usr/bin/setpriv"),
            ["--reuid=\(user.userID)", "--regid=\(user.groupID)", "--init-groups", "/usr/bin/env", "-i"] + exact + [program]
                + arguments,
            exactEnvironment: [:])
    }

    /// Every path under `url`, for handing the build tree to the user and back.
    static func changeOwner(_ url: URL, to owner: (userID: UInt32, groupID: UInt32)) throws {
        let result = try command("/bin/chown", ["-R", "-h", "\(owner.userID):\(owner.groupID)", url.path])
        #expect(result.status == 0, "chown: \(result.output)")
    }

    @Test func scriptsRunAsANormalUserServesTheirSocketAndDockctlFindsIt() throws {
        let user = try Self.normalUser()
        #expect(user.userID != 0)
        // The user's runtime directory, as logind would make it: theirs, mode 0700.
        let runtime = "/tmp/dockd-user-runtime-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try #require(mkdir(runtime, 0o700) == 0)
        defer { _ = try? Self.command("/bin/rm", ["-rf", runtime]) }
        try #require(chown(runtime, user.userID, user.groupID) == 0)
        let environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": runtime, "TMPDIR": runtime, "XDG_RUNTIME_DIR": runtime,
        ]

        // scripts/run builds in the tree's .build (SwiftPM writes its build database even when
        // nothing is to be done), so for the run the user owns it; it goes back to its owner after.
        let build = Self.repository.appendingPathComponent(".build")
        var buildStatus = stat()
        let hasBuild = lstat(build.path, &buildStatus) == 0
        if geteuid() == 0 {
            let readable = try Self.asUser(
                user, "/usr/bin/test", ["-r", Self.repository.appendingPathComponent("scripts/run").path],
                environment: environment
            ).finish()
            try #require(readable.status == 0, "\(Self.userName) can read the repository (check it out where others may read it)")
            if hasBuild { try Self.changeOwner(build, to: user) }
        }
        defer {
            if geteuid() == 0, hasBuild { try? Self.changeOwner(build, to: (buildStatus.st_uid, buildStatus.st_gid)) }
        }

        // scripts/run, as its README says, with nothing else: no --socket, no DOCKD_SOCKET.
        let run = try Self.asUser(
            user, "/bin/sh",
            [
                "-c", "cd \"$0\" && exec scripts/run --wake-on-attach=false 1>&2",
                Self.repository.path,
            ], environment: environment)
        let socket = runtime + "/dockd.sock"
        // (The build may take minutes; "dockd started" follows whatever dockd made of the socket.)
        let started = run.waitForErrorLine(containing: "dockd started on simulator", timeoutSeconds: 900)
        #expect(started != nil, "dockd runs: \(run.errorLines.suffix(10))")
        let served = run.errorLines.last { $0.contains("control API") }
        #expect(served?.hasSuffix("control API on \(socket)") == true, "\(served ?? "no such line"); \(run.errorLines.suffix(10))")
        // The simulated dock may attach before dockd says it started: a line already read counts.
        #expect(
            run.errorLines.contains { $0.contains("attached DK-1 Demo") }
                || run.waitForErrorLine(containing: "attached DK-1 Demo", timeoutSeconds: 30) != nil,
            "\(run.errorLines.suffix(10))")
        var status = stat()
        #expect(
            lstat(socket, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK && status.st_uid == user.userID,
            "a socket of the user's own at \(socket)")

        // dockctl as the same user, no flags, where scripts/run said it is (the README's next
        // step: the PATH line it prints): the per-user socket is the first it tries.
        let pathLine = run.errorLines.first { $0.contains("export PATH=\"") }
        let printedDirectory = pathLine?.split(separator: "\"").dropFirst().first?.split(separator: ":").first
        try #require(printedDirectory != nil, "scripts/run says where the programs are: \(run.errorLines.prefix(5))")
        let dockctl = String(printedDirectory!) + "/dockctl"
        #expect(access(dockctl, X_OK) == 0, "dockctl is where scripts/run says: \(dockctl)")
        let reached = try Self.asUser(user, dockctl, ["status"], environment: environment).finish()
        #expect(reached.status == 0, "\(reached.error)")
        #expect(reached.output.contains("dock:       DK-1 Demo (SIM-0001) on simulator"), "\(reached.output)")

        run.signal(SIGTERM)
        let stopped = try run.finish()
        #expect(stopped.status == 0, "\(stopped.error)")
        #expect(access(socket, F_OK) != 0, "the socket is removed on exit")

        // With no dockd of theirs (and none of the system's), dockctl says where it looked.
        let unreachable = try Self.asUser(user, dockctl, ["status"], environment: environment).finish()
        #expect(unreachable.status == 1)
        #expect(
            unreachable.error.hasPrefix(
                "dockctl: cannot connect to dockd; tried \(socket) (connect \(socket): "
                    + "No such file or directory), then /run/dockd/dockd.sock ("), "\(unreachable.error)")
    }

    @Test func theClientFallsBackToTheNextSocketAndNamesEveryOneItTried() throws {
        let (dockd, socket) = try ClientProcessTests.startDaemon()
        let missing = "/nonexistent-\(getpid()).sock"
        let (_, path) = try VarlinkConnection.connect(toFirstOf: [missing, socket])
        #expect(path == socket, "the first path that answers")
        let manager = try DockAccessoryManager(environment: ["DOCKD_SOCKET": socket])
        #expect(manager.socketPath == socket)
        #expect(
            throws: DockClientError.cannotConnectToAny([
                .cannotConnect(path: missing, reason: "connect \(missing): No such file or directory"),
                .cannotConnect(path: missing + "2", reason: "connect \(missing)2: No such file or directory"),
            ])
        ) { try VarlinkConnection.connect(toFirstOf: [missing, missing + "2"]) }
        #expect(throws: DockClientError.cannotConnect(path: missing, reason: "connect \(missing): No such file or directory")) {
            try VarlinkConnection.connect(toFirstOf: [missing])
        }
        #expect(DockdSocket.defaultPaths(environment: ["DOCKD_SOCKET": "/x.sock", "XDG_RUNTIME_DIR": "/run/user/7"]) == ["/x.sock"])
        dockd.signal(SIGTERM)
        #expect(try dockd.finish().status == 0)
    }
}
