import DockAPI
import DockClient
import DockJSON
import DockVocabulary

/// What dockctl says when a call fails: one sentence for each error dockd can answer
/// (`Protocol/io.dockd.Dock.varlink`'s named errors and Varlink's own), saying what went wrong and
/// what to do, and the exit status it ends with (the table in `dockctl --help` and dockctl(1)).
/// The wire's name and fields are printed as they came with `--json`.
enum ErrorSentence {
    /// Exit status: dockd (or the dock) refused, or a motion did not run to its end.
    static let refused: Int32 = 1
    /// Exit status: the command line is wrong; dockctl asked nothing of dockd.
    static let usage: Int32 = 64
    /// Exit status: `replay`'s detection file cannot be read or is malformed.
    static let badData: Int32 = 65
    /// Exit status: dockd cannot be reached, or went away before it answered (`EX_UNAVAILABLE`).
    static let unreachable: Int32 = 69

    /// The hint every unreachable-socket message ends with, for root and a normal user alike.
    static let unreachableHint =
        "is dockd running? From a clone, scripts/run starts it; an installed dockd starts through its socket "
        + "(systemctl status dockd.socket). --socket PATH or DOCKD_SOCKET names another socket"

    /// What to do when a socket refused this user: the system's socket is for group dock.
    static let permissionHint =
        "the socket is for members of group dock: sudo usermod -aG dock $USER, then log in again (or --socket PATH names another)"

    /// The hint for sockets that could not be reached for these reasons: a permission refused
    /// says how to get it, anything else how dockd is started.
    static func hint(for reasons: [String]) -> String {
        reasons.contains { $0.contains("Permission denied") } ? permissionHint : unreachableHint
    }

    /// The sentence for `error`, and the exit status it ends with.
    static func describe(_ error: any Error) -> (sentence: String, status: Int32) {
        switch error {
        case let error as DockClientError: describe(error)
        case let error as Refused: (error.description, refused)
        default: ("\(error)", refused)
        }
    }

    static func describe(_ error: DockClientError) -> (sentence: String, status: Int32) {
        switch error {
        case .cannotConnect(let path, let reason):
            ("cannot reach dockd at \(path) (\(why(reason, path))); \(hint(for: [reason]))", unreachable)
        case .cannotConnectToAny(let failures):
            (
                "cannot reach dockd; tried "
                    + failures.map { failure in
                        if case .cannotConnect(let path, let reason) = failure { "\(path) (\(why(reason, path)))" } else { "\(failure)" }
                    }.joined(separator: ", then ") + "; \(hint(for: failures.map { "\($0)" }))", unreachable
            )
        case .disconnected:
            (
                "dockd closed the connection before it answered (it stopped, or restarted); run the command again once it is back",
                unreachable
            )
        case .remote(let name, let parameters):
            ((try? Dock.Failure(name: name, parameters: parameters)).map(sentence) ?? unknown(name, parameters), refused)
        case .unexpectedReply(let text):
            ("dockd answered something dockctl does not understand (\(text)); are dockd and dockctl the same version? (--version)", refused)
        case .streamInUse:
            ("dockctl asked for a second stream on one connection, which is a bug in dockctl; please report it", refused)
        case .invalidArgument(let error):
            ("\(error.parameter) cannot be sent: \(error.reason)", usage)
        case .invalidReply(let error):
            ("dockd's answer is not what its interface says (\(error)); are dockd and dockctl the same version? (--version)", refused)
        }
    }

    /// The sentence for one of dockd's named errors.
    static func sentence(_ failure: Dock.Failure) -> String {
        switch failure {
        case .noSuchAccessory(let name):
            "dockd has no accessory named \(name); dockctl list names the ones it serves"
        case .accessoryAmbiguous(let names):
            "dockd serves several accessories (\(names.joined(separator: ", "))): name one with --accessory NAME"
        case .notReady:
            "no dock is attached and ready: plug it in, or wait until dockd says it attached (dockctl status shows what dockd sees)"
        case .busy(let holder):
            "another client (connection \(holder)) controls the dock; wait until it lets go, or add --take-over to take control from it"
        case .noSubjectFound:
            "no tracked subject is at that point of the picture; dockctl status lists the subjects with their boxes "
                + "(0...1 from the top left)"
        case .notSupported(let capability):
            "this dock cannot \(capability): it has nothing dockd can drive for it (dockctl status lists what it can do)"
        case .invalidParameter(let error):
            error.reason.isEmpty
                ? "dockd refused the value of \(error.parameter); dockctl COMMAND --help says what each option takes"
                : "dockd refused \(error.parameter): it \(error.reason); dockctl COMMAND --help says what each option takes"
        case .dockRefused(let reason, let detail):
            "the dock refused the command: " + refusal(reason, detail: detail)
        case .dockFault(let fault):
            "the dock stopped with a fault (\(words(fault.code))\(fault.axis.map { " on the \($0.rawValue) axis" } ?? "")) that ended the motion; "
                + "dockctl status shows the dock's faults, and dockctl stop clears one that has passed"
        case .methodNotFound(let method):
            "this dockd has no method \(method): it is older than dockctl (compare dockd --version and dockctl --version)"
        case .interfaceNotFound(let interface):
            "this dockd does not serve \(interface): it is older than dockctl, or the socket is not dockd's"
        case .expectedMore:
            "dockctl called a stream without asking for more replies, which is a bug in dockctl; please report it"
        case .noSuchPreset(let name):
            "there is no preset '\(name)'; dockctl preset list shows the presets, and dockctl preset save \(name) makes it"
        case .presetsUnavailable(let file, let reason):
            "dockd cannot save presets: \(file) \(reason)"
        case .other(let name, let parameters):
            unknown(name, parameters)
        }
    }

    /// Why the dock refused, from `DockRefused`'s reason and detail.
    static func refusal(_ reason: String, detail: Int) -> String {
        switch reason {
        case "faulted":
            // The detail is the fault's code in the dock's protocol; the status names the fault.
            return "it has a fault (code \(detail)); dockctl status names it, and dockctl stop clears one that has passed"
        case "out_of_range": return "a value is beyond what it takes; dockctl status shows its limits"
        case "unknown_message": return "it does not know that command (its firmware may be older than dockd)"
        case "wrong_length": return "the command reached it garbled; try again, and check the cable if it keeps happening"
        case "unsupported_version": return "it speaks no protocol version dockd offers; update its firmware or dockd"
        default: return "\(words(reason)) (detail \(detail))"
        }
    }

    private static func unknown(_ name: String, _ parameters: [String: JSONValue]) -> String {
        "dockd answered with an error dockctl does not know, \(name) \(JSONValue.object(parameters).serialized); "
            + "are dockd and dockctl the same version? (--version)"
    }

    /// `motor_stall` as `motor stall`.
    static func words(_ name: String) -> String { name.replacingUnderscores() }

    /// Why a socket could not be reached, without the system call's name: `connect /x: No such
    /// file or directory` as `no such file or directory`.
    private static func why(_ reason: String, _ path: String) -> String {
        let bare = reason.hasPrefix("connect \(path): ") ? String(reason.dropFirst("connect \(path): ".count)) : reason
        return bare.first.map { $0.lowercased() + bare.dropFirst() } ?? bare
    }

    /// What `--json` prints on standard output for a named error: its name and fields as dockd sent them.
    static func json(_ error: any Error) -> String? {
        guard case .remote(let name, let parameters) = error as? DockClientError else { return nil }
        return JSONValue.object(["error": .string(name), "parameters": .object(parameters)]).serialized
    }
}

extension String {
    fileprivate func replacingUnderscores() -> String { String(map { $0 == "_" ? " " : $0 }) }
}
