import DockAPI
import DockClient
import DockVocabulary
import Foundation

/// The soak's control holder, a child process (`dockbench --soak-holder SOCKET`): it takes control
/// and holds it as a dead man's handle — a stream of velocities without a duration — until the
/// soak kills it with SIGKILL, so dockd sees a holder vanish without a word. It says `holding` on
/// standard output once dockd has given it control; while the dock is unplugged it keeps asking.
enum SoakHolder {
    static func run(socket: String) async -> Never {
        var phase = 0.0
        while true {
            if let connection = try? VarlinkConnection(path: socket),
                (try? await connection.call(.host(.acquireControl(takeOver: true)))) != nil
            {
                FileHandle.standardOutput.write(Data("holding\n".utf8))
                while true {
                    phase += 0.2
                    let velocity = MotionRequest.velocity(
                        yawRadiansPerSecond: 0.2 * sin(phase), pitchRadiansPerSecond: 0.05 * cos(phase),
                        duration: nil)
                    guard (try? await connection.call(.host(.motion(velocity, takeOver: true, waitsForEnd: false)))) != nil else { break }
                    try? await Task.sleep(for: .milliseconds(50))
                }
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
    }
}
