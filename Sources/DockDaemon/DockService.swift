public import DockAPI
public import DockCore
public import DockHost

/// The `io.dockd.Dock` methods over a session runner: the call parsed into a `DockCall` (every
/// parameter checked), the dock it names checked, the runner asked, the answer encoded.
public struct DockService: Sendable {
    /// The dock's runner.
    public let runner: SessionRunner

    /// Product information for `org.varlink.service.GetInfo`.
    public static let version = "0.2.0"

    /// Creates the service.
    public init(runner: SessionRunner) { self.runner = runner }

    /// Answers one call (all but `Watch`, which the server streams).
    public func reply(to call: VarlinkCall, from client: ClientID) async -> VarlinkReply {
        let parsed: DockCall.Parsed
        do {
            parsed = try DockCall.parse(call)
        } catch {
            return error.reply
        }
        if let refusal = await accessoryRefusal(parsed.accessory) { return refusal }
        switch parsed.call {
        case .getStatus:
            return .success(["status": DockEncoding.json(await currentStatus())])
        case .listAccessories:
            let status = await currentStatus()
            return .success(["accessories": .array(DockEncoding.accessory(status).map { [$0] } ?? [])])
        case .watch:
            return .failure(VarlinkService.Error.expectedMore)
        case .host(let request):
            return DockEncoding.reply(await runner.request(request, from: client))
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
