import Testing

@testable import DockVision

@Suite struct OutputPlanTests {
    let yuyv720 = FormatChoice(format: .yuyv, size: FrameSize(width: 1280, height: 720))
    let mjpeg720 = FormatChoice(format: .mjpeg, size: FrameSize(width: 1280, height: 720))

    @Test func theCamerasFramesPassThroughWhenNothingChanges() throws {
        let plan = try OutputPlan.plan(input: yuyv720, stride: 2560, format: .same, size: nil)
        #expect(plan == OutputPlan(format: yuyv720, passesThrough: true))
        #expect(plan.frameBytes == 1280 * 720 * 2)
        // Naming the camera's own format and size is the same.
        #expect(try OutputPlan.plan(input: yuyv720, stride: 2560, format: .yuyv, size: yuyv720.size).passesThrough)
        // Motion-JPEG passes through as it is.
        #expect(
            try OutputPlan.plan(input: mjpeg720, stride: 0, format: .same, size: nil) == OutputPlan(format: mjpeg720, passesThrough: true))
    }

    @Test func anotherFormatSizeOrPaddedLinesAreConverted() throws {
        let small = FrameSize(width: 640, height: 360)
        #expect(
            try OutputPlan.plan(input: yuyv720, stride: 2560, format: .same, size: small)
                == OutputPlan(format: FormatChoice(format: .yuyv, size: small), passesThrough: false))
        let nv12 = try OutputPlan.plan(input: mjpeg720, stride: 0, format: .nv12, size: nil)
        #expect(nv12 == OutputPlan(format: FormatChoice(format: .nv12, size: yuyv720.size), passesThrough: false))
        #expect(nv12.frameBytes == 1280 * 720 * 3 / 2)
        // Lines with padding: a write takes a frame packed.
        #expect(try OutputPlan.plan(input: yuyv720, stride: 2688, format: .same, size: nil).passesThrough == false)
    }

    @Test func theFramedViewIsAlwaysConverted() throws {
        let framed = try OutputPlan.plan(input: yuyv720, stride: 2560, format: .same, size: nil, view: .framed)
        #expect(framed == OutputPlan(format: yuyv720, passesThrough: false, isFramed: true))
        #expect(try OutputPlan.plan(input: mjpeg720, stride: 0, format: .yuyv, size: nil, view: .framed).isFramed)
        #expect(throws: OutputPlanError.framedJPEG) {
            try OutputPlan.plan(input: mjpeg720, stride: 0, format: .same, size: nil, view: .framed)
        }
    }

    @Test func whatCannotBeMetIsNamed() {
        #expect(throws: OutputPlanError.jpegNeedsConversion(FrameSize(width: 640, height: 360))) {
            try OutputPlan.plan(input: mjpeg720, stride: 0, format: .same, size: FrameSize(width: 640, height: 360))
        }
        #expect(throws: OutputPlanError.oddSize(FrameSize(width: 641, height: 360), .yuyv)) {
            try OutputPlan.plan(input: yuyv720, stride: 2560, format: .yuyv, size: FrameSize(width: 641, height: 360))
        }
        #expect(throws: OutputPlanError.oddSize(FrameSize(width: 640, height: 361), .nv12)) {
            try OutputPlan.plan(input: yuyv720, stride: 2560, format: .nv12, size: FrameSize(width: 640, height: 361))
        }
        #expect(
            "\(OutputPlanError.jpegNeedsConversion(FrameSize(width: 640, height: 360)))"
                == "output: the camera gives Motion-JPEG, which is not re-encoded: output-size 640x360 needs output-format yuyv or nv12")
    }

    @Test func theOutputSettingsParseAndBadOnesAreNamed() throws {
        let command = try VisionCommand.parse(
            ["--output", "/dev/video10", "--output-format", "nv12", "--output-size", "1280x720"], readFile: { _ in nil })
        var expected = VisionSettings()
        expected.output = "/dev/video10"
        expected.outputFormat = .nv12
        expected.outputSize = "1280x720"
        #expect(command == .run(expected, configurationPath: nil))
        #expect(expected.outputFrameSize == FrameSize(width: 1280, height: 720))
        #expect(VisionSettings().outputFrameSize == nil)
        for bad in ["1280", "1280x", "x720", "12x720", "1280x720x2", "wide"] {
            #expect(
                throws: VisionCommand.Failure.configuration(
                    "output-size: '\(bad)' is not WIDTHxHEIGHT with a width of 16 to 7680 and a height of 16 to 4320")
            ) {
                try VisionCommand.parse(["--output-size", bad], readFile: { _ in nil })
            }
        }
        #expect(throws: VisionCommand.Failure.configuration("output: /dev/video0 is the camera itself; name the loopback device's output"))
        {
            try VisionCommand.parse(["--output", "/dev/video0"], readFile: { _ in nil })
        }
        #expect(throws: VisionCommand.Failure.self) {
            try VisionCommand.parse(["--output-format", "mjpeg"], readFile: { _ in nil })
        }
    }
}
