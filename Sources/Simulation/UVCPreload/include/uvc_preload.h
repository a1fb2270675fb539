// The emulated UVC camera's preload library (LD_PRELOAD): no API of its own. It takes over
// open/openat/close/ioctl for paths that are Unix sockets served by
// `docksim --protocol uvc --v4l2 PATH`, and forwards each ioctl there as a framed request
// (Protocol/uvc.md section 3). This header only documents it.
#pragma once

/// The framing version this library speaks (for a future handshake; 1 today).
int dockd_uvc_preload_version(void);
