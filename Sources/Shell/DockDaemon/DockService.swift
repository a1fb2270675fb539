public import DockAPI
import DockJSON
import DockLinks
import DockPolicy
import DockVersion
public import DockVocabulary

/// The `io.dockd.Dock` methods over the daemon's accessories: the call parsed into a `DockCall`
/// (every parameter checked), the accessory it names found, its runner asked, the answer encoded.
/// On the daemon's loop, like the runners.
public struct DockService {
    /// The accessories served, in the order they were configured (SIGHUP may add and remove
    /// some: ``add(_:)``, ``remove(named:)``).
    public var accessories: [DaemonAccessory] { table.accessories }

    /// Product information for `org.varlink.service.GetInfo`: the one version (`DockVersion`).
    public static let version = DockVersion.number

    /// `GetStatus`'s reply as it goes on the socket, and the runner's ``SessionRunner/statusVersion``
    /// it was made from.
    private final class StatusReply {
        var version: Int?
        var bytes: [UInt8] = []
    }
    /// The accessories and each one's kept reply, shared by every copy of the service.
    private final class Table {
        var accessories: [DaemonAccessory]
        var statusReplies: [ObjectIdentifier: StatusReply] = [:]
        init(_ accessories: [DaemonAccessory]) { self.accessories = accessories }
    }
    private let table: Table

    /// Creates the service over `accessories` (at least one).
    public init(accessories: [DaemonAccessory]) {
        precondition(!accessories.isEmpty, "a service needs an accessory")
        table = Table(accessories)
    }

    /// Serves `accessory` too, after the others (SIGHUP found a new section).
    public func add(_ accessory: DaemonAccessory) { table.accessories.append(accessory) }

    /// Stops serving the accessory named `name`; returns it (nil: there was none).
    @discardableResult
    public func remove(named name: String) -> DaemonAccessory? {
        guard let index = table.accessories.firstIndex(where: { $0.name == name }) else { return nil }
        let removed = table.accessories.remove(at: index)
        table.statusReplies[ObjectIdentifier(removed)] = nil
        return removed
    }

    /// Creates the service over one accessory's runner.
    public init(runner: SessionRunner) { self.init(accessories: [DaemonAccessory(name: DaemonAccessory.defaultName, runner: runner)]) }

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
        switch parsed.call {
        case .listAccessories, .serviceInfo, .interfaceDescription: return reply(immediateReply(parsed.call).bytes)
        case .getStatus, .watch, .host: break
        }
        let index: Int
        switch accessoryIndex(parsed.accessory) {
        case .success(let found): index = found
        case .failure(let refusal): return reply(refusal.reply.bytes)
        }
        if case .host(let request) = parsed.call {
            return accessories[index].runner.submit(request, from: client) { reply(VarlinkReply($0.answer).bytes) }
        }
        if case .getStatus = parsed.call { return reply(statusReplyBytes(index)) }
        reply(immediateReply(parsed.call).bytes)
    }

    /// `GetStatus`'s reply, encoded once for each status the runner holds (it holds one for up to
    /// a tick): making and writing the reply's JSON for every call was 44 % of dockd's CPU while
    /// a client called it back to back (perf of dockbench's status phase).
    private func statusReplyBytes(_ index: Int) -> [UInt8] {
        let accessory = accessories[index], runner = accessory.runner
        let statusReply = table.statusReplies[ObjectIdentifier(accessory)] ?? StatusReply()
        table.statusReplies[ObjectIdentifier(accessory)] = statusReply
        let status = runner.latestStatus
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
            return .success(["accessories": .array(accessories.map(\.entry.json))])
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

    /// The place in ``accessories`` of the one a call's `accessory` names — by its name, else by
    /// its serial number; nil: the only one — `NoSuchAccessory` for a name no accessory answers
    /// to, or `AccessoryAmbiguous` (with the names it could mean) for none named when there are
    /// several, or a serial number two accessories share (two of one simulated model).
    public func accessoryIndex(_ wanted: String?) -> Result<Int, Dock.Failure> {
        guard let wanted else {
            switch accessories.count {
            case 0: return .failure(.notReady)  // a reload took the last away and its successor failed to start
            case 1: return .success(0)
            default: return .failure(.accessoryAmbiguous(accessories.map(\.name)))
            }
        }
        if let index = accessories.firstIndex(where: { $0.name == wanted }) { return .success(index) }
        let bySerialNumber = accessories.indices.filter { accessories[$0].hasSerialNumber(wanted) }
        switch bySerialNumber.count {
        case 0: return .failure(.noSuchAccessory(wanted))
        case 1: return .success(bySerialNumber[0])
        default: return .failure(.accessoryAmbiguous(bySerialNumber.map { accessories[$0].name }))
        }
    }

    /// The accessory a call's `accessory` names, or the refusal that says why there is none.
    public func accessory(_ wanted: String?) -> Result<DaemonAccessory, Dock.Failure> {
        accessoryIndex(wanted).map { accessories[$0] }
    }
}
