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
            switch name {
            case DockInterface.Error.busy:
                "another client (\(parameters["holder"].map { $0.serialized } ?? "?")) controls the dock; use --take-over"
            case DockInterface.Error.notReady: "no dock is attached and ready"
            case DockInterface.Error.invalidParameter:
                "invalid \(parameters["parameter"].flatMap(\.stringValue) ?? "parameter"): "
                    + (parameters["reason"].flatMap(\.stringValue) ?? "")
            case DockInterface.Error.noSuchAccessory:
                "no dock \(parameters["accessory"].flatMap(\.stringValue) ?? "")"
            case DockInterface.Error.dockRefused:
                "refused by the dock: \(parameters["reason"].flatMap(\.stringValue) ?? "?") (detail \(parameters["detail"].map { $0.serialized } ?? "?"))"
            case DockInterface.Error.dockFault:
                "the dock raised a fault: \(parameters["fault"]?["code"]?.stringValue ?? "?")"
                    + (parameters["fault"]?["axis"]?.stringValue.map { " on \($0)" } ?? "")
            default: "\(name) \(JSONValue.object(parameters).serialized)"
            }
        case .unexpectedReply(let text): "unexpected reply: \(text)"
        }
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

    /// Calls a method and returns its reply's parameters.
    public func call(_ method: String, _ parameters: [String: JSONValue] = [:]) async throws(DockClientError)
        -> [String: JSONValue]
    {
        let message = JSONValue.object(["method": .string(method), "parameters": .object(parameters)])
        let bytes: [UInt8]? = await withCheckedContinuation { continuation in
            sendLock.withLock { _ in
                shared.pending.withLock { $0.append(continuation) }
                if (try? socket.write(Array(message.serialized.utf8) + [0])) == nil {
                    let waiter = shared.pending.withLock { $0.isEmpty ? nil : $0.removeLast() }
                    waiter?.resume(returning: nil)
                }
            }
        }
        guard let bytes else { throw .disconnected }
        return try Self.parameters(of: bytes)
    }

    /// Calls a streaming method (`more`); its replies arrive on the returned stream, which ends
    /// with the connection. Use a connection of its own for a stream.
    public func stream(_ method: String, _ parameters: [String: JSONValue] = [:])
        -> AsyncThrowingStream<[String: JSONValue], any Error>
    {
        let (raw, continuation) = AsyncStream<[UInt8]>.makeStream()
        shared.streamSink.withLock { $0 = continuation }
        let message = JSONValue.object(["method": .string(method), "parameters": .object(parameters), "more": .bool(true)])
        _ = try? socket.write(Array(message.serialized.utf8) + [0])
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

    private static func parameters(of bytes: [UInt8]) throws(DockClientError) -> [String: JSONValue] {
        guard let reply = try? JSONValue.parse(Data(bytes)), case .object(let members) = reply else {
            throw .unexpectedReply(String(decoding: bytes, as: UTF8.self))
        }
        let parameters: [String: JSONValue]
        if case .object(let given)? = members["parameters"] { parameters = given } else { parameters = [:] }
        if case .string(let error)? = members["error"] { throw .remote(name: error, parameters: parameters) }
        return parameters
    }
}

