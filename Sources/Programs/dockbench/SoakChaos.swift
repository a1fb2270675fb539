import DockAPI
import DockSockets
import DockSystem
import Foundation
import Glibc
import SimulatedSerialDock
import Synchronization

/// The soak's trouble, on a thread of its own (every step may block briefly on a raw socket or
/// a child process): the dock unplugged and re-plugged, control holders killed with SIGKILL,
/// clients that vanish before reading their answer, and garbage on the socket. A 20 ms step
/// decides what is due.
final class Chaos: @unchecked Sendable {
    private let link: String
    private let options: Soak.Options
    // Touched by the chaos thread only, once started (plug/unplug before and after it).
    private var dock: PseudoTerminalDock?
    private var docks = 0
    private var holder: Process?
    private var holderOutput: Pipe?
    private var generator = SystemRandomNumberGenerator()
    private let finished = Mutex(false)

    init(link: String, options: Soak.Options) {
        self.link = link
        self.options = options
    }

    /// A new simulated dock behind the link dockd opens.
    @discardableResult
    func plug() -> Bool {
        docks += 1
        guard let fresh = try? PseudoTerminalDock(seed: UInt64(docks)) else { return false }
        unlink(link)
        guard symlink(fresh.devicePath, link) == 0 else {
            fresh.stop()
            return false
        }
        dock = fresh
        return true
    }

    /// The link removed and the pty closed: dockd reads end of file or EIO, as from a USB cable
    /// pulled out.
    func unplug() {
        unlink(link)
        dock?.stop()
        dock = nil
    }

    func start(socket: String, tally: Soak.Tally) {
        let thread = Thread { [self] in
            run(socket: socket, tally: tally)
            finished.withLock { $0 = true }
        }
        thread.start()
    }

    /// Waits for the thread (the tally says stop), kills a holder still alive, unplugs.
    func finish() {
        while !finished.withLock({ $0 }) { usleep(10_000) }
        unplug()
    }

    private func run(socket: String, tally: Soak.Tally) {
        var now = MonotonicClock.now()
        var plugChange = now + options.plugged
        var holderChange = now + options.holderEvery
        var nextVanisher = now
        var nextGarbage = now + .milliseconds(500)
        var rounds = 0
        while tally.running.load(ordering: .relaxed) {
            now = MonotonicClock.now()
            if now >= plugChange {
                if dock != nil {
                    unplug()
                    tally.add { $0.unplugs += 1 }
                    plugChange = now + options.unplugged
                } else {
                    if !plug() { tally.failure("cannot re-plug the simulated dock") }
                    plugChange = now + options.plugged
                }
            }
            if now >= holderChange {
                if holder != nil {
                    killHolder(tally)
                    holderChange = now + options.holderEvery - options.holderFor
                } else {
                    startHolder(socket: socket, tally: tally)
                    holderChange = now + options.holderFor
                }
            }
            if now >= nextVanisher {
                rounds += 1
                vanish(socket: socket, midWatch: rounds % 2 == 0, tally: tally)
                nextVanisher = now + .milliseconds(250)
            }
            if now >= nextGarbage {
                sendGarbage(socket: socket, oversize: tally.counts.withLock { $0.garbage } % 10 == 9, tally: tally)
                nextGarbage = now + .seconds(1)
            }
            usleep(20_000)
        }
        if holder != nil { killHolder(tally) }
    }

    /// `dockbench --soak-holder SOCKET`, from beside this binary.
    private func startHolder(socket: String, tally: Soak.Tally) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        process.arguments = ["--soak-holder", socket]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
            holder = process
            holderOutput = output
        } catch {
            tally.failure("cannot start a control holder: \(error)")
        }
    }

    /// SIGKILL, as a crashed app dies: dockd hears nothing but the socket closing.
    private func killHolder(_ tally: Soak.Tally) {
        guard let process = holder else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let said = holderOutput.map { String(decoding: $0.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) } ?? ""
        try? holderOutput?.fileHandleForReading.close()
        holder = nil
        holderOutput = nil
        tally.add {
            $0.holdersKilled += 1
            if said.contains("holding") { $0.holdersHeld += 1 }
        }
    }

    /// A client that asks and is gone before the answer, or that opens `Watch`, reads a little
    /// of the stream and is gone.
    private func vanish(socket: String, midWatch: Bool, tally: Soak.Tally) {
        guard let connection = connect(socket, tally: tally) else { return }
        defer { connection.close() }
        let call = midWatch ? DockCall.watch.encoded() : DockCall.getStatus.encoded()
        _ = try? connection.write(call.bytes)
        if midWatch { _ = readAWhile(connection, milliseconds: 40) }
        tally.add { $0.vanished += 1 }
    }

    /// Random bytes, ended by a NUL (one malformed message) or not; or 70 KiB without a NUL,
    /// more than a message may be. dockd answers with an error or closes the connection.
    private func sendGarbage(socket: String, oversize: Bool, tally: Soak.Tally) {
        guard let connection = connect(socket, tally: tally) else { return }
        defer { connection.close() }
        let count = oversize ? 70 * 1024 : Int.random(in: 1...2048, using: &generator)
        var bytes = (0..<count).map { _ in UInt8.random(in: 1...255, using: &generator) }
        if !oversize, Bool.random(using: &generator) { bytes.append(0) }
        var written = 0
        let deadline = MonotonicClock.now() + .milliseconds(200)
        while written < bytes.count, MonotonicClock.now() < deadline {
            guard let count = try? connection.write(Array(bytes[written...])) else { break }  // closed by dockd
            written += count
            if count == 0 { usleep(1_000) }
        }
        _ = readAWhile(connection, milliseconds: 20)
        tally.add { $0.garbage += 1 }
    }

    private func connect(_ socket: String, tally: Soak.Tally) -> FileDescriptor? {
        do {
            let connection = try UnixSocket.connect(path: socket)
            try connection.setNonBlocking()
            return connection
        } catch {
            tally.failure("raw connect: \(error)")
            return nil
        }
    }

    /// Reads what comes for up to `milliseconds`; the byte count.
    private func readAWhile(_ connection: FileDescriptor, milliseconds: Int) -> Int {
        let deadline = MonotonicClock.now() + .milliseconds(milliseconds)
        var total = 0
        while MonotonicClock.now() < deadline {
            var entry = pollfd(fd: connection.rawValue, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, 5)
            switch try? connection.read() {
            case .bytes(let bytes)?: total += bytes.count
            case .wouldBlock?: continue
            case .hangUp?, nil: return total
            }
        }
        return total
    }
}
