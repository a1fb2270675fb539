import CFrameKernel

/// Makes `Footage` from a real video of people walking in front of a still camera (Debian's
/// `vtest.avi`): the background plate as the per-pixel median of a sample of its frames (people
/// move on; the place stays), and the people cut out of every frame by their difference from
/// that plate — no detector is involved, so the footage owes nothing to a detector it may later
/// test.
///
/// A frame's pixels that differ from the plate (in luma by more than `lumaThreshold`, or in the
/// two chroma summed by more than `chromaThreshold`) form a mask, opened (specks gone) and closed
/// (holes filled); its 8-connected regions of a person's size and shape (`PersonShape`), clear
/// of the frame's edges, are people. A region is linked to the nearest region of a similar
/// height and width in the frame before; a run of linked regions is one person's walk. The longest walks
/// of different people become `FootagePerson`s: each frame cropped to the region (a pixel's alpha
/// its region's outline, softened by a pixel), the direction from where the walk starts and ends.
/// The pixel passes are `CFrameKernel`'s.
public struct FootageCutter {
    /// What the cutter takes for a person.
    public struct PersonShape: Hashable, Sendable {
        /// Shortest and tallest, pixels.
        public var heightPixels: ClosedRange<Int> = 50...160
        /// Width over height.
        public var aspect: ClosedRange<Double> = 0.2...0.6
        /// The least share of its box the region fills.
        public var minimumFill = 0.35
        /// How close to the frame's edge it may come, pixels.
        public var borderPixels = 3

        /// The defaults, for `vtest.avi`'s people (60–110 pixels tall).
        public init() {}
    }

    /// Luma difference from the plate that makes a pixel foreground.
    public var lumaThreshold = 28
    /// Summed chroma difference from the plate that makes a pixel foreground.
    public var chromaThreshold = 18
    /// What a person looks like in the mask.
    public var shape = PersonShape()
    /// How far a region's centre may move between frames and still be the same person, pixels
    /// (across plus down).
    public var linkDistancePixels = 14.0
    /// How much its height may change between frames, as a share.
    public var linkHeightChange = 0.25
    /// How much its width may change between frames, as a share (a person who merges with a
    /// post they pass ends their walk there).
    public var linkWidthChange = 0.5
    /// Frames left off each end of a walk (where it began or ended, the person was often half
    /// hidden or merged with something).
    public var trimmedFrames = 3
    /// The shortest walk kept, frames.
    public var minimumFrames = 30
    /// The most frames kept of one walk.
    public var maximumFrames = 80

    private struct Region {
        var left: Int, top: Int, width: Int, height: Int
        var image: FootageImage
        var centerX: Double { Double(left) + Double(width) / 2 }
        var centerY: Double { Double(top) + Double(height) / 2 }
    }

    private struct Walk {
        var firstFrame: Int
        var regions: [Region]
        var lastFrame: Int { firstFrame + regions.count - 1 }
    }

    private let plate: FootageImage
    private var active: [Walk] = []
    private var finished: [Walk] = []
    private var mask: [UInt8] = []
    private var scratch: [UInt8] = []
    private var labels: [Int32] = []
    private var parents: [Int32] = []

    /// A cutter against `plate` (every frame must be the plate's size).
    public init(plate: FootageImage) {
        self.plate = plate
        let count = plate.width * plate.height
        mask = [UInt8](repeating: 0, count: count)
        scratch = mask
        labels = [Int32](repeating: 0, count: count)
        parents = [Int32](repeating: 0, count: count + 1)
    }

    /// The per-pixel median of `frames` (each the same size; at most 255 of them).
    public static func medianPlate(of frames: [FootageImage]) -> FootageImage {
        precondition(!frames.isEmpty && frames.count <= 255, "a median plate needs 1 to 255 frames")
        let width = frames[0].width, height = frames[0].height
        precondition(frames.allSatisfy { $0.width == width && $0.height == height }, "the frames differ in size")
        func median(_ plane: KeyPath<FootageImage, [UInt8]>) -> [UInt8] {
            var output = [UInt8](repeating: 0, count: width * height)
            let planes = frames.map { $0[keyPath: plane] }
            withPointers(planes) { pointers in
                output.withUnsafeMutableBufferPointer { out in
                    dock_median(pointers, Int32(planes.count), width * height, out.baseAddress)
                }
            }
            return output
        }
        return FootageImage(width: width, height: height, y: median(\.y), u: median(\.u), v: median(\.v))
    }

    /// Takes the video's next frame (`index` counts from 0, one more each time).
    public mutating func add(_ frame: FootageImage, index: Int) {
        precondition(frame.width == plate.width && frame.height == plate.height, "a frame must be the plate's size")
        let (width, height) = (plate.width, plate.height)
        let (luma, chroma) = (Int32(lumaThreshold), Int32(chromaThreshold))
        var components = [dock_component](repeating: dock_component(), count: 512)
        var count = 0
        let plate = self.plate
        withImage(frame) { framePointer in
            withImage(plate) { platePointer in
                mask.withUnsafeMutableBufferPointer { dock_foreground(framePointer, platePointer, luma, chroma, $0.baseAddress) }
            }
        }
        mask.withUnsafeMutableBufferPointer { maskBytes in
            scratch.withUnsafeMutableBufferPointer { scratchBytes in
                // Open by one pixel (specks go), close by two (holes and gaps in a coat fill).
                dock_morphology(maskBytes.baseAddress, Int32(width), Int32(height), 1, 0, scratchBytes.baseAddress)
                dock_morphology(maskBytes.baseAddress, Int32(width), Int32(height), 1, 1, scratchBytes.baseAddress)
                dock_morphology(maskBytes.baseAddress, Int32(width), Int32(height), 2, 1, scratchBytes.baseAddress)
                dock_morphology(maskBytes.baseAddress, Int32(width), Int32(height), 2, 0, scratchBytes.baseAddress)
            }
            labels.withUnsafeMutableBufferPointer { labelBytes in
                parents.withUnsafeMutableBufferPointer { parentBytes in
                    components.withUnsafeMutableBufferPointer { componentBytes in
                        count = Int(
                            dock_label_components(
                                maskBytes.baseAddress, Int32(width), Int32(height), labelBytes.baseAddress, parentBytes.baseAddress,
                                componentBytes.baseAddress, Int32(componentBytes.count)))
                    }
                }
            }
        }
        var regions: [Region] = []
        for number in 0..<min(count, components.count) {
            let component = components[number]
            let regionWidth = Int(component.right - component.left) + 1, regionHeight = Int(component.bottom - component.top) + 1
            let aspect = Double(regionWidth) / Double(regionHeight)
            let border = shape.borderPixels
            guard shape.heightPixels.contains(regionHeight), shape.aspect.contains(aspect),
                Double(component.area) >= shape.minimumFill * Double(regionWidth * regionHeight),
                Int(component.left) >= border, Int(component.top) >= border,
                Int(component.right) < width - border, Int(component.bottom) < height - border
            else { continue }
            regions.append(crop(frame, component: component, label: Int32(number + 1)))
        }
        link(regions, frame: index)
    }

    /// The `count` longest walks of different people (a walk that picks up where a kept one
    /// ended, near where it ended, is the same person and is passed over).
    public func people(count: Int) -> [FootagePerson] {
        let walks = (finished + active).compactMap { walk -> Walk? in
            guard walk.regions.count >= minimumFrames + 2 * trimmedFrames else { return nil }
            return Walk(
                firstFrame: walk.firstFrame + trimmedFrames, regions: Array(walk.regions.dropFirst(trimmedFrames).dropLast(trimmedFrames)))
        }.sorted { $0.regions.count > $1.regions.count }
        var kept: [Walk] = []
        for walk in walks where kept.count < count {
            let continues = kept.contains { other in
                func near(_ a: Region, _ b: Region) -> Bool {
                    abs(a.centerX - b.centerX) + abs(a.centerY - b.centerY) < 3 * linkDistancePixels
                }
                let after =
                    walk.firstFrame > other.lastFrame && walk.firstFrame - other.lastFrame <= 5
                    && near(walk.regions[0], other.regions[other.regions.count - 1])
                let before =
                    other.firstFrame > walk.lastFrame && other.firstFrame - walk.lastFrame <= 5
                    && near(other.regions[0], walk.regions[walk.regions.count - 1])
                return after || before
            }
            if !continues { kept.append(walk) }
        }
        return kept.map { walk in
            let regions = Array(walk.regions.prefix(maximumFrames))
            let walksRight = regions[regions.count - 1].centerX >= regions[0].centerX
            return FootagePerson(
                frames: regions.map(\.image), walksRight: walksRight,
                sources: regions.enumerated().map { offset, region in
                    (walk.firstFrame + offset, region.left, region.top, region.width, region.height)
                })
        }
    }

    /// Links this frame's regions to the walks of the frame before: each walk to its nearest
    /// region of a similar height, greedily; a walk with none ends, a region with none starts one.
    private mutating func link(_ regions: [Region], frame: Int) {
        var taken = Set<Int>()
        var stillActive: [Walk] = []
        for var walk in active {
            let last = walk.regions[walk.regions.count - 1]
            var best: Int?
            var bestDistance = Double.infinity
            for (index, region) in regions.enumerated() where !taken.contains(index) {
                let distance = abs(region.centerX - last.centerX) + abs(region.centerY - last.centerY)
                let heightChange = abs(Double(region.height - last.height)) / Double(last.height)
                let widthChange = abs(Double(region.width - last.width)) / Double(last.width)
                if distance < linkDistancePixels, heightChange < linkHeightChange, widthChange < linkWidthChange, distance < bestDistance {
                    best = index
                    bestDistance = distance
                }
            }
            if let best {
                taken.insert(best)
                walk.regions.append(regions[best])
                stillActive.append(walk)
            } else {
                finished.append(walk)
            }
        }
        for (index, region) in regions.enumerated() where !taken.contains(index) {
            stillActive.append(Walk(firstFrame: frame, regions: [region]))
        }
        active = stillActive
    }

    /// The region cut out with a two-pixel margin: the frame's pixels, alpha 255 on the region's
    /// own pixels and 0 elsewhere, then softened by a 3 × 3 mean.
    private func crop(_ frame: FootageImage, component: dock_component, label: Int32) -> Region {
        let margin = 2
        let left = max(0, Int(component.left) - margin), top = max(0, Int(component.top) - margin)
        let right = min(frame.width - 1, Int(component.right) + margin), bottom = min(frame.height - 1, Int(component.bottom) + margin)
        let width = right - left + 1, height = bottom - top + 1
        var y = [UInt8](repeating: 0, count: width * height), u = y, v = y, alpha = y
        withImage(frame) { image in
            labels.withUnsafeBufferPointer { labelBytes in
                y.withUnsafeMutableBufferPointer { yBytes in
                    u.withUnsafeMutableBufferPointer { uBytes in
                        v.withUnsafeMutableBufferPointer { vBytes in
                            alpha.withUnsafeMutableBufferPointer { alphaBytes in
                                dock_cut_region(
                                    image, labelBytes.baseAddress, label, Int32(left), Int32(top), Int32(width), Int32(height),
                                    yBytes.baseAddress, uBytes.baseAddress, vBytes.baseAddress, alphaBytes.baseAddress)
                            }
                        }
                    }
                }
            }
        }
        return Region(
            left: left, top: top, width: width, height: height,
            image: FootageImage(width: width, height: height, y: y, u: u, v: v, alpha: alpha))
    }
}

/// Calls `body` with C pointers to each array's bytes.
private func withPointers<Result>(_ arrays: [[UInt8]], _ body: (UnsafePointer<UnsafePointer<UInt8>?>) -> Result) -> Result {
    func nest(_ index: Int, _ collected: [UnsafePointer<UInt8>?]) -> Result {
        guard index < arrays.count else { return collected.withUnsafeBufferPointer { body($0.baseAddress!) } }
        return arrays[index].withUnsafeBufferPointer { nest(index + 1, collected + [$0.baseAddress]) }
    }
    return nest(0, [])
}

/// Calls `body` with the C kernel's view of `image`.
func withImage<Result>(_ image: FootageImage, _ body: (UnsafePointer<dock_image>) -> Result) -> Result {
    image.y.withUnsafeBufferPointer { y in
        image.u.withUnsafeBufferPointer { u in
            image.v.withUnsafeBufferPointer { v in
                func call(_ alpha: UnsafePointer<UInt8>?) -> Result {
                    var view = dock_image(
                        y: y.baseAddress, u: u.baseAddress, v: v.baseAddress, alpha: alpha, width: Int32(image.width),
                        height: Int32(image.height))
                    return body(&view)
                }
                guard let alpha = image.alpha else { return call(nil) }
                return alpha.withUnsafeBufferPointer { call($0.baseAddress) }
            }
        }
    }
}
