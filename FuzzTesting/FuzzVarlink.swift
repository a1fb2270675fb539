// libFuzzer entry point for the Varlink server's request path as far as it is pure: a client's
// bytes through `VarlinkFrameSplitter`, `VarlinkCall.parse` and `DockCall.parse` (Sources/Core/DockAPI),
// as dockd's VarlinkServer and DockService take them. Built by `scripts/fuzz varlink`.
//
// Invariants checked on every input:
// - the splitter gives the same messages (or the same oversize refusal) however the bytes are cut
//   (where the input's first byte says), and never a message over 64 KiB;
// - every message is a call or a named refusal: a `VarlinkCall.Malformed` with a reason (the
//   server closes the connection), or a `DockCall.Refusal` whose reply is a JSON object, ended by
//   NUL, naming an error of io.dockd.Dock or org.varlink.service;
// - a call that parses, written back as a message, parses as the same call and the same DockCall
//   outcome (nesting deeper than 128 is refused on the way in);
// - a call with a number beyond a double's range (1e999) in its parameters — read as an infinity,
//   which JSON cannot write back — is refused by DockCall, never accepted.
import DockAPI
import DockJSON
import DockVocabulary

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVarlink(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))

    var whole = VarlinkFrameSplitter()
    let wholeMessages = try? whole.append(bytes)
    let split = count == 0 ? 0 : Int(bytes[0]) % (count + 1)
    var parts = VarlinkFrameSplitter()
    let partMessages: [[UInt8]]?
    do {
        partMessages = try parts.append(bytes[..<split]) + parts.append(bytes[split...])
    } catch {
        partMessages = nil
    }
    precondition(wholeMessages == partMessages, "chunking changed the messages")
    // The whole input as one message too: most inputs hold no NUL.
    let messages = (wholeMessages ?? []) + [bytes]
    for message in messages {
        precondition(message.count <= VarlinkFrameSplitter.maximumMessageBytes || message == bytes)
        check(message)
    }
    if wholeMessages == nil {
        checkReply(ParameterError(parameter: "", reason: "message longer than 65536 bytes").reply)
    }
    return 0
}

private func check(_ message: [UInt8]) {
    let call: VarlinkCall
    do {
        call = try VarlinkCall.parse(message)
    } catch {
        precondition(!error.reason.isEmpty, "a refusal without a reason")
        return
    }
    let first = outcome(call)
    if containsInfinity(.object(call.parameters)) {
        guard case .failure = first else { preconditionFailure("\(call): a number beyond a double's range was accepted") }
        return
    }
    var members: [String: JSONValue] = ["method": .string(call.method), "parameters": .object(call.parameters)]
    if call.isOneway { members["oneway"] = .bool(true) }
    if call.wantsMore { members["more"] = .bool(true) }
    let written = Array(JSONValue.object(members).serialized.utf8)
    guard let again = try? VarlinkCall.parse(written) else {
        preconditionFailure("\(call) written as \(String(decoding: written, as: UTF8.self)) does not parse")
    }
    precondition(again == call, "\(call) reads back as \(again)")
    precondition(first == outcome(again), "\(call) is parsed differently when written back")
}

/// Whether a value holds a number that is not finite anywhere inside it.
private func containsInfinity(_ value: JSONValue) -> Bool {
    switch value {
    case .number(let number): !number.isFinite
    case .array(let elements): elements.contains(where: containsInfinity)
    case .object(let members): members.values.contains(where: containsInfinity)
    case .null, .bool, .integer, .string: false
    }
}

private func outcome(_ call: VarlinkCall) -> Result<DockCall.Parsed, DockCall.Refusal> {
    do {
        return .success(try DockCall.parse(call))
    } catch {
        checkReply(error.reply)
        return .failure(error)
    }
}

/// A refusal goes out as a JSON object ended by NUL, naming a known error.
private func checkReply(_ reply: VarlinkReply) {
    let bytes = reply.bytes
    precondition(bytes.last == 0 && bytes.dropLast().allSatisfy { $0 != 0 }, "a reply not ended by one NUL")
    guard let value = try? JSONValue.parse(bytes: Array(bytes.dropLast())), case .object(let members) = value,
        case .string(let name)? = members["error"], case .object? = members["parameters"]
    else { preconditionFailure("the refusal \(reply) is not a Varlink error reply") }
    precondition(name.hasPrefix("io.dockd.Dock.") || name.hasPrefix("org.varlink.service."), "error \(name)")
}
