// Written by scripts/embed-uvc-models from Protocol/uvc/*.json: edit those, then run it.
// swift-format-ignore-file
extension UVCCameraModel {
    /// The committed models, file name and text, in file name order.
    static let builtInFiles: [(name: String, json: String)] = [
        (name: "generic.json", json: #"""
{
  "name": "generic",
  "display_name": "Generic UVC PTZ camera",
  "source": "No one model: the widest ranges V4L2 and uvcvideo allow. Absolute pan and tilt: the kernel's ext-ctrls-camera.rst ('valid values between -180 * 3600 and +180 * 3600'), step 3600 as most captures show. Speeds: uvcvideo's CT_PANTILT_RELATIVE mapping writes min(abs(v), 255), and reports a device minimum of 1 as -1 (uvc_ctrl.c, read for facts). The motion figures are guesses for a camera nothing is known of.",
  "usb_id": "",
  "controls": [
    {"name": "pan_absolute", "minimum": -648000, "maximum": 648000, "step": 3600, "default": 0,
     "source": "kernel ext-ctrls-camera.rst: +-180 * 3600 arc-seconds"},
    {"name": "tilt_absolute", "minimum": -648000, "maximum": 648000, "step": 3600, "default": 0,
     "source": "kernel ext-ctrls-camera.rst: +-180 * 3600 arc-seconds"},
    {"name": "pan_speed", "minimum": -1, "maximum": 255, "step": 1, "default": 0,
     "source": "uvcvideo: magnitude capped at 255 (one byte), GET_MIN of 1 reported as -1"},
    {"name": "tilt_speed", "minimum": -1, "maximum": 255, "step": 1, "default": 0,
     "source": "as pan_speed"},
    {"name": "zoom_absolute", "minimum": 0, "maximum": 100, "step": 1, "default": 0,
     "source": "a placeholder range: the unit is the camera's own"}
  ],
  "speed_degrees_per_second_per_unit": 0.5,
  "absolute_degrees_per_second": 60,
  "digital_pan_tilt": false,
  "read_back_is_target": true,
  "motion_lag_ms": 300,
  "enumeration_delay_ms": 0,
  "zoom_full_travel_ms": 1500,
  "zoom_magnification": {
    "points": [{"fraction": 0, "magnification": 1}, {"fraction": 1, "magnification": 2}],
    "source": "No one camera's optics: the emulation's own choice (docksim's webcam magnifies its picture linearly from 1x at zoom_absolute's minimum to 2x at its maximum, docs/simulator.md), so that dockd and the emulated webcam agree."
  }
}
"""#),
        (name: "insta360-link.json", json: #"""
{
  "name": "insta360-link",
  "display_name": "Insta360 Link",
  "source": "USB id 2e1a:4c01 (soyersoyer/cameractrls#55, firmware 1.4.3.8; and mach5.dev 'Reverse-Engineering the Insta360 Link'). Pan +-522000 (+-145 degrees) and zoom 100..400 from one public capture, tilt +-270000 from another (attribution unclear: real-hardware.md section 1c, weak). Step 3600 assumed, as on every other UVC PTZ capture read. The Camera Terminal also declares relative pan/tilt (cameractrls#55), which uvcvideo would show as pan_speed/tilt_speed, but no public dump gives their range, so they are left out and the model is driven by stepped absolute targets. Read-back, lag and rates: estimates, not measured.",
  "usb_id": "2e1a:4c01",
  "controls": [
    {"name": "pan_absolute", "minimum": -522000, "maximum": 522000, "step": 3600, "default": 0,
     "source": "public capture (weak): +-145 degrees"},
    {"name": "tilt_absolute", "minimum": -270000, "maximum": 270000, "step": 3600, "default": 0,
     "source": "public capture (weak, attribution unclear): +-75 degrees"},
    {"name": "zoom_absolute", "minimum": 100, "maximum": 400, "step": 1, "default": 100,
     "source": "public capture (weak)"}
  ],
  "speed_degrees_per_second_per_unit": 1,
  "absolute_degrees_per_second": 120,
  "digital_pan_tilt": false,
  "read_back_is_target": true,
  "motion_lag_ms": 300,
  "enumeration_delay_ms": 0
}
"""#),
        (name: "logitech-c920.json", json: #"""
{
  "name": "logitech-c920",
  "display_name": "Logitech HD Pro Webcam C920",
  "source": "Digital PTZ: pan/tilt are a crop inside the zoomed picture. pan_absolute and tilt_absolute -36000..36000 step 3600 (+-10 degrees) and zoom_absolute 100..500: many public v4l2-ctl -L captures of the C920 and Brio (real-hardware.md section 1c; the same lines appear in public test fixtures found by the search tool). USB id 046d:082d is the C920's. No speed controls: velocity is stepped absolute targets. The crop moves within a frame or two: a 100 ms lag is an estimate.",
  "usb_id": "046d:082d",
  "controls": [
    {"name": "pan_absolute", "minimum": -36000, "maximum": 36000, "step": 3600, "default": 0,
     "source": "public C920/Brio v4l2-ctl -L captures"},
    {"name": "tilt_absolute", "minimum": -36000, "maximum": 36000, "step": 3600, "default": 0,
     "source": "public C920/Brio v4l2-ctl -L captures"},
    {"name": "zoom_absolute", "minimum": 100, "maximum": 500, "step": 1, "default": 100,
     "source": "public C920/Brio v4l2-ctl -L captures"}
  ],
  "speed_degrees_per_second_per_unit": 1,
  "absolute_degrees_per_second": 30,
  "digital_pan_tilt": true,
  "read_back_is_target": true,
  "motion_lag_ms": 100,
  "enumeration_delay_ms": 0
}
"""#),
        (name: "obsbot-tiny.json", json: #"""
{
  "name": "obsbot-tiny",
  "display_name": "OBSBOT Tiny",
  "source": "Speeds and zoom_continuous: the 'Before the patch' v4l2-ctl dump in torvalds/linux pull request #823 (John Bauer, 2024-03-21, 'Quirk fix for OBSBOT Tiny camera minimum control settings'): pan_speed min=-1 max=160 default=20, tilt_speed min=-1 max=120 default=20, zoom_continuous min=0 max=100 default=100 - the misreported -1 minimum and a non-zero default. Absolute pan/tilt and zoom_absolute: a public OBSBOT Tiny 2 capture (pan +-468000, tilt +-324000, step 3600, zoom 0..100; weak, file unnamed, real-hardware.md section 1c). USB id 3564:fef0 is Remo Tech's (the Tiny 4K is 3564:fef4, cgevans/tiny2#4). Read-back answers the last target (obsbotd, dockkit.md); the lag, the speed unit and the absolute rate are estimates, not measured. Enumeration is slow through OBSBOT's SDK (~3 s, aaronsb/obsbot-camera-control PR #51); over V4L2 unmeasured, 1 s assumed.",
  "usb_id": "3564:fef0",
  "controls": [
    {"name": "pan_absolute", "minimum": -468000, "maximum": 468000, "step": 3600, "default": 0,
     "source": "OBSBOT Tiny 2 capture (weak): +-130 degrees"},
    {"name": "tilt_absolute", "minimum": -324000, "maximum": 324000, "step": 3600, "default": 0,
     "source": "OBSBOT Tiny 2 capture (weak): +-90 degrees"},
    {"name": "pan_speed", "minimum": -1, "maximum": 160, "step": 1, "default": 20,
     "source": "torvalds/linux#823, before the patch"},
    {"name": "tilt_speed", "minimum": -1, "maximum": 120, "step": 1, "default": 20,
     "source": "torvalds/linux#823, before the patch"},
    {"name": "zoom_absolute", "minimum": 0, "maximum": 100, "step": 1, "default": 0,
     "source": "OBSBOT Tiny 2 capture (weak)"},
    {"name": "zoom_continuous", "minimum": 0, "maximum": 100, "step": 1, "default": 100,
     "source": "torvalds/linux#823, before the patch"}
  ],
  "speed_degrees_per_second_per_unit": 0.75,
  "absolute_degrees_per_second": 90,
  "digital_pan_tilt": false,
  "read_back_is_target": true,
  "motion_lag_ms": 400,
  "enumeration_delay_ms": 1000
}
"""#),
    ]
}
