import DockSystem

/// Writes a line to standard error (from any thread: the camera app logs from its tasks).
func printError(_ message: String) {
    StandardError.write(message + "\n")
}
