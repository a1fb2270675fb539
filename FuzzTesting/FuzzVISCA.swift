// libFuzzer entry point for the VISCA decoders. Built by `scripts/fuzz visca`, compiled in one
// module with Sources/Core/VISCAProtocol, so it needs no import.
//
// Invariants checked on every input:
// - the packet decoder never holds more than one packet, frames only header...FF packets of at most
//   16 bytes, and cutting the input in two (where its first byte says) changes nothing;
// - every packet it frames, and the input itself, given to the command and the reply decoders,
//   is accepted or refused by name; an accepted command or reply encodes back to exactly the
//   packet's bytes;
// - the input as a VISCA over IP datagram is refused by name, or encodes back to exactly itself,
//   and its payload is decoded (or refused) as the payload type says;
// - the inquiry readers take any data without trapping, and what they accept is what they read.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVISCA(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))

    var whole = VISCAPacketDecoder()
    var wholeResults: [Result<[UInt8], VISCAError>] = []
    for byte in bytes {
        if let result = whole.decode(byte) { wholeResults.append(result) }
        precondition(whole.bufferedCount < VISCAPacketDecoder.maximumPacketCount, "holds \(whole.bufferedCount) bytes")
    }
    let split = count == 0 ? 0 : Int(bytes[0]) % (count + 1)
    var parts = VISCAPacketDecoder()
    let partResults = parts.decode(bytes[..<split]) + parts.decode(bytes[split...])
    precondition(partResults == wholeResults, "chunking changed the outcome")

    var packets = [bytes]
    for result in wholeResults {
        switch result {
        case .success(let packet):
            precondition(packet.count >= 2 && packet.count <= VISCAPacketDecoder.maximumPacketCount, "framed \(packet)")
            precondition(packet[0] & 0x80 != 0 && packet.last == 0xFF, "framed \(packet)")
            precondition(!packet.dropLast().contains(0xFF), "framed \(packet) with an inner FF")
            packets.append(packet)
        case .failure(.noHeader(let dropped)):
            precondition(dropped >= 1, "noHeader of \(dropped) bytes")
        case .failure(.tooLong(let length)):
            precondition(length == VISCAPacketDecoder.maximumPacketCount, "tooLong of \(length)")
        case .failure(let error):
            preconditionFailure("the framer reported \(error)")
        }
    }
    for packet in packets {
        checkCommand(packet)
        checkReply(packet)
    }

    if let message = try? VISCAIPMessage.decode(bytes) {
        precondition(message.encode() == bytes, "datagram \(bytes) re-encodes as \(message.encode())")
        switch message.payloadType {
        case .command, .inquiry: checkCommand(message.payload)
        case .reply: checkReply(message.payload)
        case .deviceSetting, .controlCommand, .controlReply: _ = message.control
        }
    }

    if let version = VISCAVersion(data: bytes) {
        precondition(VISCAVersion(data: bytes) == version)
    }
    if let position = VISCAPanTiltPosition(data: bytes) {
        precondition(VISCAPanTiltPosition(data: bytes) == position)
    }
    if let zoom = VISCAZoomPosition(data: bytes) {
        precondition(VISCAZoomPosition(data: bytes) == zoom)
    }
    if let speeds = VISCAPanTiltMaxSpeed(data: bytes) {
        precondition(VISCAPanTiltMaxSpeed(data: bytes) == speeds)
    }
    return 0
}

private func checkCommand(_ packet: [UInt8]) {
    guard let (address, command) = try? VISCACommand.decode(packet) else { return }
    let encoded = command.encode(address: address)
    precondition(encoded == packet, "command \(command) from \(packet) encodes as \(encoded)")
    guard let again = try? VISCACommand.decode(encoded) else { preconditionFailure("\(encoded) does not decode") }
    precondition(again.address == address && again.command == command, "\(encoded) decodes as \(again)")
}

private func checkReply(_ packet: [UInt8]) {
    guard let (address, reply) = try? VISCAReply.decode(packet) else { return }
    let encoded = reply.encode(address: address)
    precondition(encoded == packet, "reply \(reply) from \(packet) encodes as \(encoded)")
    guard let again = try? VISCAReply.decode(encoded) else { preconditionFailure("\(encoded) does not decode") }
    precondition(again.address == address && again.reply == reply, "\(encoded) decodes as \(again)")
}
