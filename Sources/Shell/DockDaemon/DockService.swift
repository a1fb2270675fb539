public import DockAPI
import DockJSON
import DockLinks
import DockPolicy
import DockVersion
public import DockVocabulary

/// The `io.dockd.Dock` methods over a session runner: the call parsed into a `DockCall` (every
/// parameter checked), the dock it names checked, the runner asked, the answer encoded. On the
/// daemon's loop, like the runner.
public struct DockService {
    /// The dock's runner.
    public let runner: SessionRunner

    /// Product information for `org.varlink.service.GetInfo`: the one version (`DockVersion`).
    public static let version = DockVersion.number

    /// `GetStatus`'s reply as it goes on the socket, and the runner's ``SessionRunner/statusVersion``
    /// it was made from.
    private final class StatusReply {
        var version: Int?
        var bytes: [UInt8] = []
    }
    private let statusReply = StatusReply()

    /// Creates the service.
    public init(runner: SessionRunner) { self.runner = runner }

    /// Answers one call (all but `Watch`, which the server streams): the host has the request
    /// when this returns, so calls reach it in their order; `reply` gets the answer, as it goes on
    /// the socket, now or, for a request the dock must answer first, later.
    public func answer(_ call: VarlinkCall, from client: ClientID, reply: @escaping ([UInt8]) -> Void) {
        let parsed: DockCall.Parsed
        do {
            parsed = try DockCall.parse(call)
        } catch {
            return reply(error.reply.bytes)
        }
        if let refusal = accessoryRefusal(parsed.accessory) { return reply(refusal.bytes) }
        if case .host(let request) = parsed.call {
            return runner.submit(request, from: client) { reply(VarlinkReply($0.answer).bytes) }
        }
        if case .getStatus = parsed.call { return reply(statusReplyBytes()) }
        reply(immediateReply(parsed.call).bytes)
    }

    /// `GetStatus`'s reply, encoded once for each status the runner holds (it holds one for up to
    /// a tick): making and writing the reply's JSON for every call was 44 % of dockd's CPU while
    /// a client called it back to back (perf of dockbench's status phase).
    private func statusReplyBytes() -> [UInt8] {
        let status = currentStatus()
        let version = runner.statusVersion
        if statusReply.version != version {
            statusReply.bytes = VarlinkReply.success(["status": status.json]).bytes
            statusReply.version = version
        }
        return statusReply.bytes
    }

    private func immediateReply(_ call: DockCall) -> VarlinkReply {
        switch call {
        case .getStatus:
            preconditionFailure("GetStatus is answered from its kept reply")
        case .listAccessories:
            return .success(["accessories": .array(currentStatus().accessory.map { [$0.json] } ?? [])])
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
    public func accessoryRefusal(_ wanted: String?) -> VarlinkReply? {
        guard let wanted, wanted != runner.serialNumber else { return nil }
        return Dock.Failure.noSuchAccessory(wanted).reply
    }

    /// The status for clients: the runner's snapshot.
    public func currentStatus() -> Dock.Status { runner.latestStatus }
}
