import CLinux
import Glibc

/// A thread of its own for work that blocks (a reader, a slow ioctl), started detached: it ends
/// when its body returns, and nothing joins it (`pthread_create(3)`, `pthread_detach(3)`).
public enum DetachedThread {
    /// Starts `body` on a new thread named `name` (its first 15 bytes: what `ps -L` and `top`
    /// show; `pthread_setname_np(3)`).
    ///
    /// - Throws: `SystemError` from `pthread_create` (`EAGAIN` when the system has no more).
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(SystemError) {
        let shortName = String(decoding: name.utf8.prefix(15), as: UTF8.self)
        let context = Unmanaged.passRetained(
            Body {
                _ = pthread_setname_np(pthread_self(), shortName)
                body()
            }
        ).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { context in
                let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
                body.run()
                return nil
            }, context)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw SystemError("pthread_create", code: result)
        }
        pthread_detach(thread)
    }

    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
