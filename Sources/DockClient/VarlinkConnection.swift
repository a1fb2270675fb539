public import DockAPI
import DockSystem
import Foundation
import Glibc
import Synchronization

/// What went wrong talking to dockd.
public enum DockClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The socket could not be reached.
    case cannotConnect(path: String, reason: String)
    /// None of the default sockets could be reached: each one's ``cannotConnect(path:reason:)``, in the order tried.
    case cannotConnectToAny([DockClientError])
    /// dockd closed the connection.
    case disconnected
    /// dockd answered with a named error.
    case remote(name: String, parameters: [String: JSONValue])
    /// dockd answered something this client does not understand.
    case unexpectedReply(String)
    /// An argument cannot be sent (the parameter as the interface names it).
    case invalidArgument(ParameterError)
    /// A reply lacks a field the interface requires, or has one of the wrong type.
    case invalidReply(ReplyError)

    public var description: String {
        switch self {
        case .cannotConnect(let path, let reason): "cannot connect to \(path): \(reason)"
        case .cannotConnectToAny(let failures):
            "cannot connect to dockd; tried "
                + failures.map { failure in
                    if case .cannotConnect(let path, let reason) = failure { "\(path) (\(reason))" } else { "\(failure)" }
                }.joined(separator: ", then ")
                + "; is dockd running? --socket PATH or DOCKD_SOCKET names its socket"
        case .disconnected: "dockd closed the connection"
        case .remote(let name, let parameters):
            switch failure {
            case .busy?, .notReady?, .invalidParameter?, .noSuchAccessory?, .dockRefused?, .dockFault?: failure!.description
            default: "\(name) \(JSONValue.object(parameters).serialized)"
            }
        case .unexpectedReply(let text): "unexpected reply: \(text)"
        case .invalidArgument(let error): "invalid \(error.parameter): \(error.reason)"
        case .invalidReply(let error): "dockd's reply is not what io.dockd.Dock says: \(error)"
        }
    }
}

extension DockClientError {
    /// dockd's named error with its fields read (nil: not a ``remote(name:parameters:)``, or its
    /// fields are not what the interface says).
    public var failure: Dock.Failure? {
        guard case .remote(let name, let parameters) = self else { return nil }
        return try? Dock.Failure(name: name, parameters: parameters)
    }
}

/// One connection to dockd: calls are sent in order and their replies matched in order; a
/// streaming call (`more`) hands its replies to a stream until the connection closes.
public final class VarlinkConnection: Sendable {
    /// What the reader thread shares with the callers (not the connection itself, so that the
    /// connection can go away and shut the socket, which ends the thread).
    private final class Shared: Sendable {
        let pending = Mutex<[CheckedContinuation<[UInt8]?, Never>]>([])
        let streamSink = Mutex<AsyncStream<[UInt8]>.Continuation?>(nil)
    }

    private let socket: FileDescriptor
    private let shared = Shared()
    private let sendLock = Mutex(())

    /// Connects to dockd's socket.
    public init(path: String) throws(DockClientError) {
        do {
            socket = try UnixSocket.connect(path: path)
        } catch {
            throw .cannotConnect(path: path, reason: "\(error)")
        }
        let thread = Thread { [socket, shared] in
            var splitter = VarlinkFrameSplitter()
            reading: while true {
                guard case .bytes(let bytes)? = try? socket.read(maximumCount: 65_536),
                    let messages = try? splitter.append(bytes)
                else { break reading }
                for message in messages {
                    if let sink = shared.streamSink.withLock({ $0 }) {
                        sink.yield(message)
                    } else {
                        let waiter = shared.pending.withLock { $0.isEmpty ? nil : $0.removeFirst() }
                        waiter?.resume(returning: message)
                    }
                }
            }
            shared.streamSink.withLock { $0?.finish() }
            for waiter in shared.pending.withLock({ list in defer { list.removeAll() }; return list }) {
                waiter.resume(returning: nil)
            }
            socket.close()
        }
        thread.name = "dockd client"
        thread.start()
    }

    /// Shutting the socket down ends the reader thread, which then closes it.
    deinit { _ = shutdown(socket.rawValue, Int32(SHUT_RDWR)) }

    /// Sends `call` and returns its reply's parameters as they came (for `--json`, which prints
    /// them); ``call(_:accessory:)`` reads them into values.
    public func send(_ call: VarlinkCall) async throws(DockClientError) -> [String: JSONValue] {
        let bytes: [UInt8]? = await withCheckedContinuation { continuation in
            sendLock.withLock { _ in
                shared.pending.withLock { $0.append(continuation) }
                if !Self.sendAll(call.bytes, on: socket) {
                    let waiter = shared.pending.withLock { $0.isEmpty ? nil : $0.removeLast() }
                    waiter?.resume(returning: nil)
                }
            }
        }
        guard let bytes else { throw .disconnected }
        return try Self.parameters(of: bytes)
    }

    /// Calls dockd for the daemon's dock (nil) or the one named, and reads the reply as the
    /// method's reply type says.
    ///
    /// - Throws: ``DockClientError/remote(name:parameters:)`` for a named error,
    ///   ``DockClientError/invalidReply(_:)`` for a reply that lacks a field or has one of the
    ///   wrong type, ``DockClientError/disconnected`` when dockd went away.
    public func call(_ call: DockCall, accessory: String? = nil) async throws(DockClientError) -> Dock.Reply {
        let parameters = try await send(call.encoded(accessory: accessory))
        guard let method = call.method else { return .done }
        do {
            return try Dock.Reply(method, parameters: parameters)
        } catch {
            throw .invalidReply(error)
        }
    }

    /// dockd's status of its dock (nil) or of the one named.
    public func status(accessory: String? = nil) async throws(DockClientError) -> Dock.Status {
        guard case .status(let status) = try await call(.getStatus, accessory: accessory) else {
            preconditionFailure("GetStatus answers a status")
        }
        return status
    }

    /// Calls a streaming method (`more`); its replies' parameters arrive on the returned stream,
    /// which ends with the connection. Use a connection of its own for a stream.
    public func stream(_ call: VarlinkCall) -> AsyncThrowingStream<[String: JSONValue], any Error> {
        let (raw, continuation) = AsyncStream<[UInt8]>.makeStream()
        shared.streamSink.withLock { $0 = continuation }
        var streaming = call
        streaming.wantsMore = true
        _ = sendLock.withLock { _ in Self.sendAll(streaming.bytes, on: socket) }
        return AsyncThrowingStream { output in
            // The task holds the connection: the stream lives as long as its reader wants it.
            let task = Task { [self] in
                _ = self
                for await bytes in raw {
                    do {
                        output.yield(try Self.parameters(of: bytes))
                    } catch {
                        output.finish(throwing: error)
                        return
                    }
                }
                output.finish(throwing: DockClientError.disconnected)
            }
            output.onTermination = { _ in task.cancel() }
        }
    }

    /// `Watch`'s events for the daemon's dock (nil) or the one named, each read into a value; the
    /// stream fails with ``DockClientError/invalidReply(_:)`` at an event that is not what the
    /// interface says. Use a connection of its own for a stream.
    public func events(accessory: String? = nil) -> AsyncThrowingStream<Dock.Event, any Error> {
        let replies = stream(DockCall.watch.encoded(accessory: accessory))
        return AsyncThrowingStream { output in
            let task = Task {
                do {
                    for try await parameters in replies {
                        guard case .event(let event) = try Dock.Reply(.watch, parameters: parameters) else { continue }
                        output.yield(event)
                    }
                    output.finish()
                } catch let error as ReplyError {
                    output.finish(throwing: DockClientError.invalidReply(error))
                } catch {
                    output.finish(throwing: error)
                }
            }
            output.onTermination = { _ in task.cancel() }
        }
    }

    /// Writes all of `bytes` with `send(2)` and `MSG_NOSIGNAL`: when dockd has closed the
    /// connection the write fails with `EPIPE` instead of raising `SIGPIPE`, which would kill an
    /// app that keeps the signal's default. Returns false when the connection is gone.
    static func sendAll(_ bytes: [UInt8], on socket: FileDescriptor) -> Bool {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                Glibc.send(socket.rawValue, raw.baseAddress! + written, bytes.count - written, Int32(MSG_NOSIGNAL))
            }
            if count < 0 {
                if errno == EINTR { continue }
                return false
            }
            written += count
        }
        return true
    }

    private static func parameters(of bytes: [UInt8]) throws(DockClientError) -> [String: JSONValue] {
        guard let reply = try? VarlinkReply.parse(bytes) else { throw .unexpectedReply(String(decoding: bytes, as: UTF8.self)) }
        if let error = reply.error { throw .remote(name: error, parameters: reply.parameters) }
        return reply.parameters
    }
}

