// libFuzzer entry point for what a UVC webcam (or a docksim emulating one) says back: the
// ioctl-over-bytes replies and the struct images in them (Sources/Core/V4L2Protocol), and camera
// models (Protocol/uvc/*.json, which a user may write). Built by `scripts/fuzz uvc`, compiled in
// one module with Sources/Core/V4L2Protocol, so it needs no import.
//
// Invariants checked on every input:
// - the reply and request framers refuse a length past `maximumLength` by name, and cutting the
//   input in two (where its first byte says) changes nothing but that frames completed in the
//   refused call are dropped with it; every frame re-encodes to exactly the bytes it came from;
// - each frame's image, and the input itself, read as every struct the session reads (capability,
//   extended and old control queries, a control, extended controls, an event subscription) is
//   accepted or refused by name (too short, too many controls); what is accepted encodes and
//   reads back as the same numbers (text: the same after one round, see checkImages);
// - the input as a camera model is accepted or refused naming a field and a line inside the text; an accepted model has
//   ranges the right way up, positive steps, positive finite speeds, controls known and unique.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUVC(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let split = count == 0 ? 0 : Int(bytes[0]) % (count + 1)

    for (headerSize, makeDecoder) in [(12, V4L2Frame.Decoder.replies), (8, V4L2Frame.Decoder.requests)] {
        var whole = makeDecoder()
        let wholeFrames = frames(&whole, [bytes])
        var parts = makeDecoder()
        let partFrames = frames(&parts, [Array(bytes[..<split]), Array(bytes[split...])])
        // A refused length drops the frames completed in the same call (the session closes the
        // port then): the whole input's frames are the parts' up to the refusal, and both refuse.
        if let refusal = wholeFrames.last?.oversize {
            precondition(
                partFrames.last?.oversize == refusal && partFrames.starts(with: wholeFrames.dropLast()),
                "chunking changed the refusal (header \(headerSize))")
        } else {
            precondition(wholeFrames == partFrames, "chunking changed the frames (header \(headerSize))")
        }
        for frame in wholeFrames.compactMap(\.framed) {
            precondition(frame.header.count == headerSize, "a header of \(frame.header.count) bytes")
            precondition(frame.body.count <= V4L2Frame.maximumLength, "an image of \(frame.body.count) bytes")
            let encoded =
                headerSize == 12
                ? V4L2Frame.Reply(request: frame.header.uint32(at: 0), errno: frame.header.int32(at: 4), bytes: frame.body).encode()
                : V4L2Frame.Request(request: frame.header.uint32(at: 0), bytes: frame.body).encode()
            precondition(encoded == frame.header + frame.body, "a frame re-encodes differently")
            checkImages(frame.body)
        }
    }
    checkImages(bytes)
    checkModel(bytes)
    return 0
}

/// One framer's output: a frame, or its refusal of an oversize length.
private struct Framed: Equatable {
    var framed: (header: [UInt8], body: [UInt8])?
    var oversize: UInt32?

    static func == (a: Framed, b: Framed) -> Bool {
        a.oversize == b.oversize && a.framed?.header == b.framed?.header && a.framed?.body == b.framed?.body
    }
}

private func frames(_ decoder: inout V4L2Frame.Decoder, _ chunks: [[UInt8]]) -> [Framed] {
    var out: [Framed] = []
    for chunk in chunks {
        do {
            out += try decoder.decode(chunk).map { Framed(framed: $0) }
        } catch {
            precondition(error.length > UInt32(V4L2Frame.maximumLength), "refused a length of \(error.length)")
            out.append(Framed(oversize: error.length))
            return out  // the stream is not this framing; the session closes it
        }
    }
    return out
}

/// Every struct the session reads, from one image.
private func checkImages(_ image: [UInt8]) {
    refusedByName(image, V4L2Capability.size) { () throws(V4L2DecodingError) in _ = try V4L2Capability(bytes: image) }
    if let capability = try? V4L2Capability(bytes: image) {
        // Numbers read back exactly. Text is read up to a NUL or the field's end, invalid UTF-8
        // as U+FFFD, and written cut to leave a NUL, so a field without one (which the kernel
        // never sends) or with invalid UTF-8 reads back changed once — and then stays.
        let again = try! V4L2Capability(bytes: capability.bytes)
        precondition(
            again.version == capability.version && again.capabilities == capability.capabilities
                && again.deviceCapabilities == capability.deviceCapabilities, "capability \(capability) reads back as \(again)")
        let third = try! V4L2Capability(bytes: again.bytes)
        precondition(third == again, "capability \(again) reads back as \(third)")
        _ = capability.versionText
    }
    refusedByName(image, V4L2QueryExtendedControl.size) { () throws(V4L2DecodingError) in _ = try V4L2QueryExtendedControl.decode(image) }
    if let control = try? V4L2QueryExtendedControl.decode(image) {
        let again = try! V4L2QueryExtendedControl.decode(V4L2QueryExtendedControl.encode(control))
        precondition(sameNumbers(again, control), "extended query \(control) reads back as \(again)")
        let third = try! V4L2QueryExtendedControl.decode(V4L2QueryExtendedControl.encode(again))
        precondition(third == again, "extended query \(again) reads back as \(third)")
    }
    refusedByName(image, V4L2QueryControl.size) { () throws(V4L2DecodingError) in _ = try V4L2QueryControl.decode(image) }
    if let control = try? V4L2QueryControl.decode(image) {
        let again = try! V4L2QueryControl.decode(V4L2QueryControl.encode(control))
        precondition(sameNumbers(again, control), "query \(control) reads back as \(again)")
        let third = try! V4L2QueryControl.decode(V4L2QueryControl.encode(again))
        precondition(third == again, "query \(again) reads back as \(third)")
    }
    refusedByName(image, V4L2Control.size) { () throws(V4L2DecodingError) in _ = try V4L2Control.decode(image) }
    if let control = try? V4L2Control.decode(image) {
        let again = try! V4L2Control.decode(V4L2Control.encode(id: control.id, value: control.value))
        precondition(again == control, "control \(control) reads back as \(again)")
    }
    do {
        let list = try V4L2ExtendedControls.decode(image)
        let again = try! V4L2ExtendedControls.decode(
            V4L2ExtendedControls.encode(which: list.which, list.controls, errorIndex: list.errorIndex))
        precondition(
            again.which == list.which && again.errorIndex == list.errorIndex
                && again.controls.map(\.id) == list.controls.map(\.id) && again.controls.map(\.value) == list.controls.map(\.value),
            "extended controls read back differently")
    } catch {
        precondition(error.structName.hasPrefix("v4l2_ext_control"), "refused as \(error.structName)")
        precondition(
            image.count < error.needed || error.needed > 1024 * V4L2ExtendedControls.controlSize,
            "refused \(image.count) bytes needing \(error.needed)")
    }
    if let subscription = V4L2Event.subscription(image) {
        let again = V4L2Event.subscription(
            V4L2Event.subscriptionImage(type: subscription.type, id: subscription.id, flags: subscription.flags))
        precondition(again! == subscription, "subscription reads back differently")
    } else {
        precondition(image.count < 12, "a subscription of \(image.count) bytes refused")
    }
}

/// Whether two descriptions agree in all but their name (text: see checkImages).
private func sameNumbers(_ a: V4L2ControlDescription, _ b: V4L2ControlDescription) -> Bool {
    a.id == b.id && a.type == b.type && a.minimum == b.minimum && a.maximum == b.maximum && a.step == b.step
        && a.defaultValue == b.defaultValue && a.flags == b.flags
}

/// A decoder refuses exactly the images shorter than its struct, naming the struct.
private func refusedByName(_ image: [UInt8], _ size: Int, _ decode: () throws(V4L2DecodingError) -> Void) {
    do {
        try decode()
        precondition(image.count >= size, "read \(image.count) bytes as a struct of \(size)")
    } catch {
        precondition(
            image.count < size && error.count == image.count && error.needed == size && !error.structName.isEmpty,
            "refused \(image.count) bytes: \(error)")
    }
}

/// The input as a camera model.
private func checkModel(_ bytes: [UInt8]) {
    guard let text = String(validating: bytes, as: UTF8.self) else { return }
    do {
        let model = try UVCCameraModel.parse(json: text)
        precondition(!model.name.isEmpty && !model.source.isEmpty, "a model without a name or source")
        precondition(
            model.degreesPerSecondPerSpeedUnit.isFinite && model.degreesPerSecondPerSpeedUnit > 0
                && model.absoluteDegreesPerSecond.isFinite && model.absoluteDegreesPerSecond > 0,
            "speeds \(model.degreesPerSecondPerSpeedUnit), \(model.absoluteDegreesPerSecond)")
        precondition(Set(model.controls.map(\.id)).count == model.controls.count, "a control listed twice")
        for control in model.controls {
            precondition(control.minimum <= control.maximum && control.step > 0, "control \(control)")
            precondition(V4L2ControlID.name(of: control.id) != nil, "control \(control.id) unknown")
            _ = control.description
        }
    } catch {
        precondition(!error.field.isEmpty && !error.reason.isEmpty, "refused without naming a field")
        let lines = text.utf8.count { $0 == UInt8(ascii: "\n") } + 1
        precondition((1...lines).contains(error.line), "\(error) for a text of \(lines) lines")
    }
}
