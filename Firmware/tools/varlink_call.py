"""A minimal Varlink client (JSON messages ended by NUL on a Unix socket) for the firmware's test
scripts: one connection, calls in order, replies read whole."""
import json
import socket
import time


class Varlink:
    def __init__(self, path: str):
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.connect(path)
        self.buffer = b""

    def close(self):
        self.socket.close()

    def call(self, method: str, parameters=None, timeout: float = 5.0):
        self.socket.settimeout(timeout)
        message = {"method": method, "parameters": parameters or {}}
        self.socket.sendall(json.dumps(message).encode() + b"\0")
        while b"\0" not in self.buffer:
            data = self.socket.recv(65536)
            if not data:
                raise ConnectionError("dockd closed the connection")
            self.buffer += data
        reply, self.buffer = self.buffer.split(b"\0", 1)
        reply = json.loads(reply)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']} {reply.get('parameters', {})}")
        return reply.get("parameters", {})

    def wait_until_still(self, timeout: float):
        """GetStatus every 100 ms until the dock's motion is idle (or the timeout); the last status."""
        deadline = time.monotonic() + timeout
        while True:
            time.sleep(0.1)
            status = self.call("io.dockd.Dock.GetStatus")["status"]
            if status["motion"] == "idle" or time.monotonic() > deadline:
                return status
