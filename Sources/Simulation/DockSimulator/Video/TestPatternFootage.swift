#if canImport(Glibc)
    import Glibc
#endif

extension Footage {
    /// Synthetic footage, for when no real footage was made (`docksim --make-footage`): a plate of
    /// 10° squares (a chessboard of light and dark, its colour drifting left to right and top to
    /// bottom, so every place on it is told apart) 160° wide, and three people as flat silhouettes
    /// — a head over a body, in three colours. Nothing in it is real; it shows the geometry.
    public static let testPattern: Footage = {
        let width = 960, height = 720
        // 160° across: f = (width / 2) / tan(80°).
        let focal = Double(width) / 2 / tan(80 * Double.pi / 180)
        var y = [UInt8](repeating: 0, count: width * height), u = y, v = y
        for row in 0..<height {
            for column in 0..<width {
                // The direction of this plate pixel, degrees.
                let azimuth = atan((Double(column) + 0.5 - Double(width) / 2) / focal) * 180 / .pi
                let elevation = atan((Double(height) / 2 - Double(row) - 0.5) / focal) * 180 / .pi
                let cell = Int((azimuth / 10).rounded(.down)) + Int((elevation / 10).rounded(.down))
                let at = row * width + column
                y[at] = cell & 1 == 0 ? 180 : 70
                u[at] = UInt8(clamping: Int(128 + azimuth * 0.6))
                v[at] = UInt8(clamping: Int(128 + elevation * 0.9))
            }
        }
        let plate = FootageImage(width: width, height: height, y: y, u: u, v: v)
        let colours: [(UInt8, UInt8, UInt8)] = [(81, 90, 240), (145, 54, 34), (41, 240, 110)]  // red, green, blue
        let people = colours.map { colour in
            FootagePerson(frames: [silhouette(luma: colour.0, cb: colour.1, cr: colour.2)], walksRight: true)
        }
        return Footage(plate: plate, plateFocalPixels: focal, people: people, strideMeters: 0.13, source: "synthetic test pattern")
    }()

    /// A person's outline, 40 × 120: a round head on a body that narrows to the feet.
    private static func silhouette(luma: UInt8, cb: UInt8, cr: UInt8) -> FootageImage {
        let width = 40, height = 120
        var alpha = [UInt8](repeating: 0, count: width * height)
        for row in 0..<height {
            for column in 0..<width {
                let x = Double(column) + 0.5 - Double(width) / 2, yy = Double(row) + 0.5
                let isHead = x * x + (yy - 9) * (yy - 9) <= 8.5 * 8.5
                let halfWidth = yy < 18 ? 0 : (yy < 70 ? 16.0 : 16 - (yy - 70) * 0.12)
                let isBody = yy >= 18 && abs(x) <= halfWidth
                alpha[row * width + column] = isHead || isBody ? 255 : 0
            }
        }
        let plane = width * height
        return FootageImage(
            width: width, height: height, y: [UInt8](repeating: luma, count: plane), u: [UInt8](repeating: cb, count: plane),
            v: [UInt8](repeating: cr, count: plane), alpha: alpha)
    }
}
