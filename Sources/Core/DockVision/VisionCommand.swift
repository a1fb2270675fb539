public import DockOptions

/// What `dockd-vision` was asked to do, parsed from its arguments and its settings file's text,
/// without side effects.
public enum VisionCommand: Hashable, Sendable {
    /// Run the service with these settings (read from the file named, if one was read).
    case run(VisionSettings, configurationPath: String?)
    /// Print the help.
    case help
    /// Print the version.
    case version
    /// Print a shell's completion script.
    case completions(Completions.Shell)

    /// The settings file read when `--config` is not given (and skipped when it does not exist).
    public static let defaultConfigurationPath = "/etc/dockd/vision.conf"

    /// A usage error (exit 64) or a bad setting (exit 78, `EX_CONFIG`).
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The command line is wrong.
        case usage(String)
        /// A setting is wrong, in the file or in a flag.
        case configuration(String)

        /// The message, naming the option or the file and line.
        public var description: String {
            switch self {
            case .usage(let message): message
            case .configuration(let message): message
            }
        }
    }

    /// Parses the arguments: the settings file first (`--config`, else the default one if it
    /// exists), then the flags, which win.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the program's name.
    ///   - readFile: A file's text, or nil when it cannot be read.
    /// - Throws: `Failure` naming what is wrong.
    public static func parse(_ arguments: [String], readFile: (String) -> String?) throws(Failure) -> VisionCommand {
        let parsed: ParsedOptions
        do {
            parsed = try OptionParser.parse(arguments, options: VisionOptions.all)
        } catch {
            throw .usage(error.message)
        }
        if let word = parsed.words.first { throw .usage("unexpected argument '\(word)'") }
        if parsed.has(VisionOptions.help) { return .help }
        if parsed.has(VisionOptions.version) { return .version }
        if let shell = parsed.choice(VisionOptions.completions, as: Completions.Shell.self) { return .completions(shell) }

        var settings = VisionSettings()
        var usedPath: String?
        let explicitPath = parsed.text(VisionOptions.config)
        let path = explicitPath ?? defaultConfigurationPath
        if !path.isEmpty {
            if let text = readFile(path) {
                do {
                    let fileArguments = try SettingsFile.arguments(fromText: text, path: path, options: VisionOptions.settings)
                    settings.apply(try OptionParser.parse(fileArguments, options: VisionOptions.settings))
                } catch {
                    throw .configuration(error.message)
                }
                usedPath = path
            } else if explicitPath != nil {
                throw .usage("cannot read settings file '\(path)'")
            }
        }
        settings.apply(parsed)
        return .run(try settings.validated(), configurationPath: usedPath)
    }

    /// The first line of the help, also printed with usage errors.
    public static let usage = "usage: dockd-vision [--config FILE] [--SETTING VALUE ...] [--help] [--version]"

    /// The whole help text.
    public static var helpText: String {
        """
        dockd-vision: reads a camera's frames (V4L2), finds faces and people in them with OpenCV, and
        sends them to dockd with Track at each frame's capture time, so the dock follows them.

        \(usage)

        Settings come from the settings file (default \(defaultConfigurationPath), lines of
        'key = value', '#' comments), then from flags, which win. Every key is also a flag.

        options:
        \(HelpText.optionList([VisionOptions.config, VisionOptions.completions, VisionOptions.help, VisionOptions.version], column: 26))

        settings:
        \(HelpText.optionList(VisionOptions.settings, column: 26))

        dockd-vision is a client of dockd's API like any application: when it stops, dockd treats it
        as any client that went away. It waits for the camera and for dockd, and tries again when
        either goes away. Signals: SIGTERM and SIGINT stop it; SIGHUP is ignored (restart it to apply
        changed settings).
        Exit status: 0 after a clean stop, 1 on a failure, 64 on a usage error, 78 on a bad setting.
        """
    }
}
