public import DockAPI
public import DockCore
public import DockHost
import DockVersion

/// The `io.dockd.Dock` methods over a session runner: the call parsed into a `DockCall` (every
/// parameter checked), the dock it names checked, the runner asked, the answer encoded.
public struct DockService: Sendable {
    /// The dock's runner.
    public let runner: SessionRunner

    /// Product information for `org.varlink.service.GetInfo`: the one version (`DockVersion`).
    public static let version = DockVersion.number

    /// Creates the service.
    public init(runner: SessionRunner) { self.runner = runner }

    /// The answer to a call: ready now, or the host's reply still to come.
    public enum Answer: Sendable {
        /// Answered.
        case ready(VarlinkReply)
        /// The host has the request; its reply comes on the stream.
        case host(AsyncStream<HostReply>)

        /// The reply, once there is one.
        public func reply() async -> VarlinkReply {
            switch self {
            case .ready(let reply): return reply
            case .host(let replies):
                for await reply in replies { return DockEncoding.reply(reply) }
                return DockEncoding.reply(.failure(.notReady))
            }
        }
    }

    /// Answers one call and waits for the answer (all but `Watch`, which the server streams).
    public func reply(to call: VarlinkCall, from client: ClientID) async -> VarlinkReply {
        await answer(call, from: client).reply()
    }

    /// Hands a call on: when this returns, the host has the request (so calls reach it in their
    /// order); its reply may come later.
    public func answer(_ call: VarlinkCall, from client: ClientID) async -> Answer {
        let parsed: DockCall.Parsed
        do {
            parsed = try DockCall.parse(call)
        } catch {
            return .ready(error.reply)
        }
        if let refusal = await accessoryRefusal(parsed.accessory) { return .ready(refusal) }
        if case .host(let request) = parsed.call { return .host(await runner.submit(request, from: client)) }
        return .ready(await immediateReply(parsed.call))
    }

    private func immediateReply(_ call: DockCall) async -> VarlinkReply {
        switch call {
        case .getStatus:
            return .success(["status": DockEncoding.json(await currentStatus())])
        case .listAccessories:
            let status = await currentStatus()
            return .success(["accessories": .array(DockEncoding.accessory(status).map { [$0] } ?? [])])
        case .watch:
            return .failure(VarlinkService.Error.expectedMore)
        case .host:
            preconditionFailure("host requests are answered by the host")
        case .serviceInfo:
            return .success([
                "vendor": .string("dockd"), "product": .string("dockd"), "version": .string(Self.version),
                "url": .string("file:/usr/share/doc/dockd/README.md"),
                "interfaces": .array([.string(VarlinkService.name), .string(DockInterface.name)]),
            ])
        case .interfaceDescription(let name):
            switch name {
            case DockInterface.name: return .success(["description": .string(DockInterface.definition)])
            case VarlinkService.name: return .success(["description": .string(VarlinkService.definition)])
            default: return .failure(VarlinkService.Error.interfaceNotFound, ["interface": .string(name)])
            }
        }
    }

    /// `NoSuchAccessory` for an `accessory` that is not this daemon's dock; nil when it is (or
    /// none was named).
    public func accessoryRefusal(_ wanted: String?) async -> VarlinkReply? {
        guard let wanted, wanted != (await runner.serialNumber) else { return nil }
        return DockEncoding.noSuchAccessory(wanted)
    }

    /// The status for clients: the runner's snapshot, or (before its first tick) a fresh one.
    public func currentStatus() async -> DockStatus {
        if let status = runner.latestStatus { return status }
        return await runner.status()
    }
}
