// swift-format-ignore-file
// (The interface text is embedded as it stands in its file, by scripts/embed-interface; not reformatted.)
/// The `io.dockd.Dock` interface: its name, and the exact text of
/// `Protocol/io.dockd.Dock.varlink`, which the daemon serves through
/// `org.varlink.service.GetInterfaceDescription` (a test checks the two are the same).
public enum DockInterface {
    /// The interface's name.
    public static let name = "io.dockd.Dock"

    /// The definition, byte for byte as in `Protocol/io.dockd.Dock.varlink`.
    public static let definition = #"""
# dockd keeps a motorised camera dock (a pan-tilt gimbal) on a serial line and moves it for
# local applications. Angles are radians, rates rad/s, durations and times seconds. Yaw > 0 pans
# right (clockwise seen from above), pitch > 0 tilts up; zero is the dock's home pose. One dockd
# may serve several accessories (ListAccessories), each with its own state, control and tracking.
# Every method takes an optional accessory: its name (the AccessoryEntry's) or its serial number;
# without it, the only accessory, or AccessoryAmbiguous when there are several.
interface io.dockd.Dock

# A dock as dockd knows it: id is its serial number, device the port it is on, protocol what it
# speaks (dock-serial, visca) and protocol_version that protocol's version (0 where it has none).
# capabilities are what it can do and lacks what it cannot, each out of: failsafe (it stops by
# itself when dockd goes quiet), velocity_ttl, telemetry_stream (it sends its pose; without it
# dockd polls), continuous_speeds (without it speeds come in steps), orientation_moves, buttons,
# dock_sensor, indicator, zoom, fault_reports, preset_memory (it keeps presets of its own, as a
# Pelco-D head that answers position queries and a VISCA camera whose profile counts memories do;
# on such a camera the presets of the API are also stored in its memories and recalled by it, see
# Protocol/visca.md; elsewhere they are dockd's own stored poses), fixed_picture (its pan, tilt
# and zoom are a crop of a fixed camera's picture, protocol digital: Track's observations are taken
# in the whole picture, whatever the pose, see Protocol/digital.md).
type Accessory (
  id: string,
  device: string,
  model: string,
  firmware: string,
  protocol: string,
  protocol_version: int,
  capabilities: []string,
  lacks: []string
)

# An accessory dockd serves: name is how calls name it (its [accessory NAME] section in
# dockd.conf, or default), state its session's, device where dockd looks for it, and accessory
# what is attached there, with its capabilities; absent until one attaches.
type AccessoryEntry (
  name: string,
  state: (disconnected, connecting, handshaking, ready, incompatible),
  device: string,
  accessory: ?Accessory
)

# Where the dock points and how fast it turns; age is how old the newest pose sample was, in
# seconds (a polled pose is older than streamed telemetry).
type Pose (
  yaw: float,
  pitch: float,
  yaw_rate: float,
  pitch_rate: float,
  age: ?float
)

# A closed range of angles, radians.
type Range (
  min: float,
  max: float
)

# How far and how fast the dock may move: its own limits, narrowed by settings and clients.
type Limits (
  yaw: Range,
  pitch: Range,
  yaw_max_speed: float,
  pitch_max_speed: float
)

# Who moves the dock: nobody, the system tracker, or a client (by its connection number);
# acquired is true when the client holds control until it releases it, stops, or disconnects.
# unattended: a bounded motion of a client that has disconnected plays to its end (any client may
# replace it); then control goes back to the tracker when tracking is on.
type Controller (
  kind: (none, tracker, client, unattended),
  client: ?int,
  acquired: bool
)

# Counters since dockd started: bad frames on the serial line, reconnects, commands the dock
# refused, observations accepted through Track, and frames from the simulator's camera.
type Counters (
  bad_frames: int,
  reconnects: int,
  refusals: int,
  observations: int,
  camera_frames: int
)

# A box in the image: normalised 0...1, origin at the top left, x right, y down.
type Rect (
  x: float,
  y: float,
  width: float,
  height: float
)

# A point in the image, normalised 0...1 from the top left.
type Point (
  x: float,
  y: float
)

# A fault the dock reported: its code (motor_stall, over_temperature, encoder_error,
# supply_voltage, failsafe_stop), the axis when it concerns one, and whether it is active.
type Fault (
  code: string,
  axis: ?(yaw, pitch),
  active: bool
)

# Where the subject sits in the frame: automatic, the centre, or the left or right third.
type FramingMode (automatic, center, left, right)

# How the delivered image is turned relative to the dock.
type ImageOrientation (up, rotated_clockwise, upside_down, rotated_counterclockwise)

# The camera behind a batch of observations: horizontal field of view (radians, 0 to pi), width
# over height, how the image is turned and whether it is mirrored (a selfie preview).
type CameraInformation (
  horizontal_fov: float,
  aspect_ratio: float,
  orientation: ?ImageOrientation,
  mirrored: ?bool
)

# One detection in one frame: what, where (in the delivered image), how sure (0...1), the
# detector's own identifier for it if it has one, and what it looks like if the client computes
# that: a descriptor of 4 to 512 finite numbers, the client's choice of feature (a colour
# histogram, an embedding), of the same length in every observation the connection sends. The
# tracker compares descriptors by cosine distance, to keep people apart and to bring one who was
# lost or walked out of the picture back under their old id (for up to 30 s by default).
type Observation (
  kind: (face, body, object),
  box: Rect,
  confidence: ?float,
  identifier: ?int,
  appearance: ?[]float
)

# The 30 Hz control loop's punctuality: ticks since dockd started, ticks missed (the loop fell a
# whole interval behind), and how late ticks ran after their scheduled times (seconds: median,
# 99th percentile and maximum over the last 1024 ticks, worked out once a second).
type Loop (
  ticks: int,
  missed: int,
  late_p50: float,
  late_p99: float,
  late_max: float
)

# One tracked subject as the camera sees it now: its id (stable while it is tracked; a face and
# its body are one subject), what it is (body: a person), its box in the delivered image (absent
# when it is behind the camera), whether the dock follows it, its rank by saliency (1 = the most
# salient) and whether it is only predicted, not seen in the last frames.
type Subject (
  id: int,
  kind: (face, body, object),
  box: ?Rect,
  primary: bool,
  saliency_rank: int,
  coasting: bool
)

# Everything about one dock at one moment. accessory, pose and limits are absent until a dock is
# attached; motion says what the motion controller is doing; faults are the dock's active faults
# (the tracker does not command the dock while one other than failsafe_stop is active). tracker says what the tracker is
# doing (following the primary subject, holding still after losing it, returning to the rest
# pose, paused: leaving the dock where a client's manual move put it, for manual-pause-s) — it
# commands the dock only while tracking is on, no client holds control, and it is not paused;
# subject_in_frame whether the primary is seen inside the region of interest; subjects are the
# tracked subjects (in Watch, at 10 Hz); shot is the shot size in force (SetShotSize), with its
# shot_fraction for a fraction; speed is the framing speed (SetFramingSpeed). crop is where the
# crop window is in the fixed camera's picture, for an accessory with fixed_picture (its pose and
# subjects' boxes are then the crop's; absent for any other).
type Status (
  state: (disconnected, connecting, handshaking, ready, incompatible),
  docked: bool,
  accessory: ?Accessory,
  pose: ?Pose,
  limits: ?Limits,
  tracking: bool,
  framing: FramingMode,
  shot: ShotSize,
  shot_fraction: ?float,
  region_of_interest: Rect,
  selected_subjects: []int,
  controller: Controller,
  motion: (idle, velocity, moving, animating, settling),
  faults: []Fault,
  tracker: (idle, following, holding, returning, paused),
  subject_in_frame: bool,
  primary: ?int,
  subjects: []Subject,
  loop: Loop,
  counters: Counters,
  speed: ?FramingSpeed,
  crop: ?Rect
)

# The built-in animations: a nod, a shake, waking up, and a quick tilt that snaps back.
type Animation (yes, no, wake, kapow)

# How a motion ended: completed (finish: the velocity's duration expired, the orientation was
# reached, the animation finished, or a move or an animation's return did not arrive in time —
# the dock held back, stopped, or silent), replaced by a later motion (by_client: whose), or stopped
# (by_client: the client that called Stop; absent when dockd stopped it because its client
# disconnected holding control, or released control). A motion the dock refuses, or that a
# dock fault ends, answers with DockRefused or DockFault instead.
type MotionEnd (
  how: (completed, replaced, stopped),
  finish: ?(expired, reached, finished, timed_out),
  by_client: ?int
)

# What became of an accepted motion request: the parameters clamped to the limits, the
# animation it cancelled, if one was playing, and, when the call asked to wait, how it ended.
type MotionResult (
  clamped: []string,
  cancelled_animation: ?Animation,
  ended: ?MotionEnd
)

# A button event: which button, pressed or released (zoom: steps, + in, - out; custom: its
# identifier).
type ButtonEvent (
  button: (tracking, shutter, flip, zoom, custom, dock),
  pressed: ?bool,
  steps: ?int,
  identifier: ?int
)

# A command the dock refused: the reason (faulted, out_of_range, not_ready, unknown_message,
# wrong_length, unsupported_version), the dock's detail code, and the command's type.
type CommandRefusal (
  reason: string,
  detail: int,
  command: ?string
)

# A change of controller.
type ControlChange (
  from: Controller,
  to: Controller
)

# A client's motion that ended (completed, replaced or stopped): whose, and how.
type MotionEnded (
  client: int,
  how: (completed, replaced, stopped),
  finish: ?(expired, reached, finished, timed_out),
  by_client: ?int
)

# Something that happened, as Watch streams it. time is the host's monotonic clock in seconds.
# status comes at 10 Hz and with every other event, as it was at that moment. The event's own
# fields come with its kind: accessory (attached), button, fault, refusal (refused), control,
# framing, motion (motion_ended). detail is the same in a line of text for people; programs read
# the fields. accessory_name is the name of the accessory whose event it is.
type Event (
  accessory_name: ?string,
  time: float,
  kind: (status, attached, docked, undocked, disconnected, button, fault, control, refused, framing, motion_ended),
  detail: string,
  accessory: ?Accessory,
  button: ?ButtonEvent,
  fault: ?Fault,
  refusal: ?CommandRefusal,
  control: ?ControlChange,
  framing: ?FramingMode,
  motion: ?MotionEnded,
  status: Status
)

# The dock's state, pose, limits, controller and counters.
method GetStatus(accessory: ?string) -> (status: Status)

# The accessories dockd serves, attached or waiting, in the order of its settings.
method ListAccessories() -> (accessories: []AccessoryEntry)

# Motion and control. Exactly one controller at a time. A motion request takes control unless
# another client holds it (Busy; take_over: true takes it anyway). A bounded motion — SetVelocity
# with a duration, SetOrientation, Animate — runs to its end even when the calling client
# disconnects (a one-shot script can move the dock), unless a later command replaces it; then
# control returns to the tracker if tracking is on. A client that holds control — AcquireControl,
# or SetVelocity without a duration, streamed — is a dead man's handle: when its connection
# closes, the motors stop within 100 ms and control is released. The reply comes once the dock
# has accepted the command (DockRefused if it refuses); with wait: true, once the motion has
# ended, saying how (MotionResult.ended), or DockRefused / DockFault / NotReady if it failed.
# A manual move — SetVelocity, SetOrientation, RecallPreset; not Animate, which ends where it
# began — pauses system tracking: once it has ended, the tracker leaves the dock where it is
# for dockd's manual-pause-s (3 s by default) after the move's last command or its end,
# whichever is later, then frames again from there, starting from rest (no jump). Turning
# tracking on (SetSystemTracking, the button) starts it at once.

# Turns the dock at these rates for duration seconds, then stops it; without a duration the
# velocity lasts 0.5 s and must be sent again to go on (a stream that holds control).
method SetVelocity(yaw: float, pitch: float, duration: ?float, take_over: ?bool, wait: ?bool, accessory: ?string) -> (result: MotionResult)

# Moves the dock to an orientation, absolute or relative to where it is, in duration seconds or
# at up to speed rad/s (one of the two; default speed: the dock's maximum; the slowest is
# 0.000001, the wire's 1 µrad/s, and a slower one is InvalidParameter speed). Targets outside the
# limits are clamped (result.clamped names the fields).
method SetOrientation(yaw: float, pitch: float, relative: ?bool, duration: ?float, speed: ?float, take_over: ?bool, wait: ?bool, accessory: ?string) -> (result: MotionResult)

# Stops the dock (decelerating), cancels any motion or animation, and releases control (to the
# tracker when tracking is on: SetSystemTracking(false) stops tracking).
method Stop(take_over: ?bool, accessory: ?string) -> ()

# Plays a built-in animation from where the dock is; any later motion cancels it.
method Animate(animation: Animation, take_over: ?bool, wait: ?bool, accessory: ?string) -> (result: MotionResult)

# Turns system tracking on or off (as the dock's tracking button does).
method SetSystemTracking(enabled: bool, accessory: ?string) -> ()

# Hands the tracker one frame's observations, with the camera information and the capture time
# (the host's monotonic clock, seconds). Boxes must be finite, of positive size and overlap the
# image; at most 64 observations a call. An appearance of another length than the connection's
# earlier ones, or outside 4 to 512, or with a value that is not finite, is InvalidParameter
# naming it, and nothing of the call is kept.
method Track(observations: []Observation, camera: CameraInformation, capture_time: float, accessory: ?string) -> ()

# Chooses where the subject sits in the frame.
method SetFramingMode(mode: FramingMode, accessory: ?string) -> ()

# How large the tracker keeps its subject in the picture by zooming, as a camera operator's
# shot sizes: head (head and shoulders: the face a third of the picture's height), half (half
# body: the face a fifth), full (full body: the body four fifths), group (the selected subjects
# together: four fifths of the picture's height or width), fraction (the subject's box — its
# body, else its face — that share of the picture's height), or off (the zoom is left alone, where
# SetZoom or the lost behaviour put it; the default).
type ShotSize (off, head, half, full, group, fraction)

# Holds the subject at a shot size by zooming while the tracker frames it: holding while the size
# is within 10 % of the shot's, then zooming slowly in (at most 1.4x a second) or fast out (7x);
# zooming out at once, whatever the size, for a subject who would leave the picture before the
# dock catches up (moving faster than it pans) or whose place grows uncertain; never in on one not
# seen in the latest frames. fraction is the share for shot fraction, 0.05 to 1
# (InvalidParameter "fraction" when it is missing or out of range, "shot" when it comes with a
# named size). Any size but off needs a zoom dockd drives and whose magnification it knows
# (NotSupported "zoom" otherwise, and the shot size in force stays). A SetZoom while a shot size is
# held is undone (at the soonest 2 s later); set the shot size off first. GetStatus says the shot
# size in force.
method SetShotSize(shot: ShotSize, fraction: ?float, accessory: ?string) -> ()

# Limits framing to a region of the image; without a region, the whole image. A region that
# reaches past the picture's edge is cut to the picture; region is the one in force.
method SetRegionOfInterest(region: ?Rect, accessory: ?string) -> (region: Rect)

# Follows these subjects (IDs from Watch's tracking summaries); an empty list goes back to
# choosing automatically. An ID no subject tracked now has is kept (a subject of that ID may yet
# appear); untracked lists those IDs, so a caller can say so.
method SelectSubjects(subjects: []int, accessory: ?string) -> (untracked: []int)

# Follows the subject at a point of the image (NoSubjectFound when there is none there).
method SelectSubjectAt(point: Point, accessory: ?string) -> (subject: int)

# Narrows the limits (never beyond the dock's own); absent fields stay as they are.
method SetLimits(yaw: ?Range, pitch: ?Range, max_speed: ?float, accessory: ?string) -> (limits: Limits)

# Zooms a camera that has a zoom it can be driven to: zoom is the fraction of the way from the
# widest it goes (0) to its longest (1), linear in the camera's own zoom units (a UVC webcam's
# ZOOM_ABSOLUTE from its minimum to its maximum); the reply is the fraction set once the camera's
# step has rounded it. Zoom is not motion: any client may zoom, whoever holds control. NotSupported
# (capability "zoom") from a dock without one dockd can drive: a dock-serial dock, whose zoom is a
# button it reports, and for now a VISCA camera.
method SetZoom(zoom: float, accessory: ?string) -> (zoom: float)

# How fast and how readily the tracker turns the dock, per axis: max_speed (rad/s), acceleration
# (rad/s²) and dead_band (radians: the least error that starts a correction; it widens with the
# estimate's uncertainty). profile names the set the numbers started from: smooth (a lecture:
# slow, gentle, a wide dead band), normal (the default) or fast (sport). The tracker never asks an
# axis for more speed or acceleration than the dock advertises: yaw and pitch are the numbers in
# force, applied is what the tracker applies once the dock's own limits narrow them (absent
# until a dock is attached).
type FramingSpeed (
  profile: (smooth, normal, fast),
  yaw: AxisSpeed,
  pitch: AxisSpeed,
  applied: ?AppliedSpeed
)

# One axis's framing speed.
type AxisSpeed (
  max_speed: float,
  acceleration: float,
  dead_band: float
)

# Both axes' framing speed as the tracker applies it.
type AppliedSpeed (
  yaw: AxisSpeed,
  pitch: AxisSpeed
)

# Changes the framing speed (dockd's framing-speed and its framing-yaw-* and framing-pitch-* keys)
# until dockd restarts or reloads its settings: a profile sets its six numbers, and the numbers
# given override the profile's (without a profile, the numbers in force); with no field, only the
# answer. A profile that is not smooth, normal or fast, a speed or acceleration not above 0, a
# dead band outside 0 to 0.5 rad: InvalidParameter naming it, and nothing changes.
method SetFramingSpeed(profile: ?string, yaw_max_speed: ?float, yaw_acceleration: ?float, yaw_dead_band: ?float, pitch_max_speed: ?float, pitch_acceleration: ?float, pitch_dead_band: ?float, accessory: ?string) -> (speed: FramingSpeed)

# Holds control until ReleaseControl, Stop, or until this connection closes (then the motors stop).
method AcquireControl(take_over: ?bool, accessory: ?string) -> ()

# Gives control back (to the system tracker when tracking is on).
method ReleaseControl(accessory: ?string) -> ()

# Presets: named poses dockd keeps across restarts, in presets.json in its state directory
# (--state-dir). A name is 1 to 32 characters of printable text: no control character, no space
# at either end (another is InvalidParameter name); dockd keeps at most 100. Saving and deleting
# are not motion (any client may, whoever holds control); each is written to the file before it
# is answered, and one the file refuses changes nothing (PresetsUnavailable). A file dockd found
# damaged at start is left as it is: dockd runs without presets and answers PresetsUnavailable to
# a save or a delete until it has been mended or removed and dockd restarted.

# A preset: its name, its pose (radians) and, where the dock had a zoom dockd drives when it was
# saved, the zoom (0 the widest ... 1 the longest).
type Preset (
  name: string,
  yaw: float,
  pitch: float,
  zoom: ?float
)

# Saves where the dock points now (and its zoom) under name, replacing a preset of that name;
# preset is what was saved. NotReady when no dock is attached with a pose.
method SavePreset(name: string, accessory: ?string) -> (preset: Preset)

# The presets, in the order they were first saved.
method ListPresets(accessory: ?string) -> (presets: []Preset)

# Goes to a preset: a motion like SetOrientation to its pose at the dock's fastest, then its
# zoom where the dock has one dockd drives; the same control rules, take_over and wait, the same
# answer (how it ended, with wait: true). NoSuchPreset when there is none of that name.
method RecallPreset(name: string, take_over: ?bool, wait: ?bool, accessory: ?string) -> (result: MotionResult)

# Forgets a preset (NoSuchPreset when there is none of that name).
method DeletePreset(name: string, accessory: ?string) -> ()

# What the dock does when the subject it follows is lost, and after how long: for after seconds
# it holds on the place the subject left (turning briefly after one who walked out of the
# picture), then it holds on, turns home (the rest pose), turns to a pose (yaw and pitch,
# radians), turns to a preset (by name, looked up then: a preset that does not exist then is
# named in the log and the dock holds), or zooms all the way out where it can (zoom_out). A
# subject found again is followed again, whatever it is doing.
type LostBehaviour (
  after: float,
  action: (hold, home, pose, preset, zoom_out),
  yaw: ?float,
  pitch: ?float,
  preset: ?string
)

# Changes the lost behaviour (dockd's lost-after-s and lost-action) until dockd restarts or
# reloads its settings; absent fields stay as they are, and with none lost is the behaviour in
# force. after is 0 to 3600 seconds; action pose needs yaw and pitch (within ±4π), preset a
# preset's name (which need not exist yet); the fields that do not go with the action are
# InvalidParameter.
method SetLostBehaviour(after: ?float, action: ?(hold, home, pose, preset, zoom_out), yaw: ?float, pitch: ?float, preset: ?string, accessory: ?string) -> (lost: LostBehaviour)

# No preset of this name.
error NoSuchPreset (name: string)

# The presets file cannot be written (nothing was changed), or was found damaged at start: the
# file, and what is wrong.
error PresetsUnavailable (file: string, reason: string)

# Streams events; call with "more": true. The first reply, a status, comes once the stream is
# set up: no event after it is missed. A client that does not read its stream is dropped. With
# accessory, that accessory's events; without, every accessory's (a first status from each).
method Watch(accessory: ?string) -> (event: Event)

# No accessory with this name or serial number.
error NoSuchAccessory (accessory: string)

# dockd serves several accessories and the call named none, or a serial number more than one of
# them has: the names it could mean.
error AccessoryAmbiguous (accessories: []string)

# No dock is attached and ready.
error NotReady ()

# Another client holds control; holder is its connection number.
error Busy (holder: int)

# No tracked subject at that point.
error NoSubjectFound ()

# The dock cannot do what was asked: the capability it lacks (zoom).
error NotSupported (capability: string)

# A parameter is missing, of the wrong type, not finite or out of range.
error InvalidParameter (parameter: string, reason: string)

# The dock refused the command: its reason (faulted, out_of_range, not_ready...) and detail code
# (for faulted, the fault's code: 1 motor_stall, 2 over_temperature...). Nothing is sent again.
error DockRefused (reason: string, detail: int)

# The dock raised a fault during the motion, which ended it.
error DockFault (fault: Fault)

"""#

    /// The errors of the interface, fully qualified.
    public enum Error {
        public static let noSuchAccessory = "io.dockd.Dock.NoSuchAccessory"
        public static let accessoryAmbiguous = "io.dockd.Dock.AccessoryAmbiguous"
        public static let notReady = "io.dockd.Dock.NotReady"
        public static let busy = "io.dockd.Dock.Busy"
        public static let invalidParameter = "io.dockd.Dock.InvalidParameter"
        public static let noSubjectFound = "io.dockd.Dock.NoSubjectFound"
        public static let notSupported = "io.dockd.Dock.NotSupported"
        public static let dockRefused = "io.dockd.Dock.DockRefused"
        public static let dockFault = "io.dockd.Dock.DockFault"
        public static let noSuchPreset = "io.dockd.Dock.NoSuchPreset"
        public static let presetsUnavailable = "io.dockd.Dock.PresetsUnavailable"
    }
}

/// The standard `org.varlink.service` interface and its errors.
public enum VarlinkService {
    /// The interface's name.
    public static let name = "org.varlink.service"

    /// Its definition, as the Varlink specification gives it.
    public static let definition = #"""
# The Varlink Service Interface is provided by every varlink service. It
# describes the service and the interfaces it implements.
interface org.varlink.service

# Get a list of all the interfaces a service provides and information
# about the implementation.
method GetInfo() -> (
  vendor: string,
  product: string,
  version: string,
  url: string,
  interfaces: []string
)

# Get the description of an interface that is implemented by this service.
method GetInterfaceDescription(interface: string) -> (description: string)

# The requested interface was not found.
error InterfaceNotFound (interface: string)

# The requested method was not found
error MethodNotFound (method: string)

# The interface defines the requested method, but the service does not
# implement it.
error MethodNotImplemented (method: string)

# One of the passed parameters is invalid.
error InvalidParameter (parameter: string)

# Client is denied access
error PermissionDenied ()

# Method is expected to be called with 'more' set to true, but wasn't
error ExpectedMore ()

"""#

    /// The errors of the service interface, fully qualified.
    public enum Error {
        public static let interfaceNotFound = "org.varlink.service.InterfaceNotFound"
        public static let methodNotFound = "org.varlink.service.MethodNotFound"
        public static let invalidParameter = "org.varlink.service.InvalidParameter"
        public static let expectedMore = "org.varlink.service.ExpectedMore"
    }
}
