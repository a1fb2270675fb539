import DockLinks
import DockSystem
public import V4L2Protocol

extension Configuration {
    /// The UVC webcam model the settings name: a built-in one, or a JSON file.
    ///
    /// - Throws: a message naming the model, when it is neither or the file is not a model.
    public func uvcCameraModel() throws(Configuration.Error) -> UVCCameraModel {
        if let builtIn = UVCCameraModel.named(uvcModel) { return builtIn }
        guard uvcModel.contains("/") || uvcModel.hasSuffix(".json") else {
            let names = UVCCameraModel.builtIn.map(\.name).joined(separator: ", ")
            throw Error(location: "uvc-model", message: "no built-in model '\(uvcModel)' (there are \(names)), and no file of that name")
        }
        guard let data = try? FileContents.read(atPath: uvcModel) else {
            throw Error(location: "uvc-model", message: "cannot read '\(uvcModel)'")
        }
        do {
            return try UVCCameraModel.parse(json: String(decoding: data, as: UTF8.self))
        } catch {
            throw Error(location: "uvc-model", message: "\(uvcModel): \(error)")
        }
    }

    /// The link to a UVC webcam of the settings' model, named `identifier` (its device path).
    func uvcLink(identifier: String) throws(Configuration.Error) -> UVCSession {
        var settings = UVCSession.Configuration(model: try uvcCameraModel())
        settings.identifier = identifier
        return UVCSession(configuration: settings)
    }
}
