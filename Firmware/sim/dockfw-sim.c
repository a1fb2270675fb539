/* dockfw-sim: the reference firmware on an emulated ATmega328P (libsimavr), in real time, with
 * its UART on a pseudo-terminal, its servo pins read as pulse widths and turned into angles by a
 * servo model, its LED watched and its tracking button pressed on command.
 *
 *   dockfw-sim --firmware dockfw.elf --pty PATH [--control FIFO] [--log FILE] [--trace] [--quiet]
 *              [--byte-us US] [--profile FILE]
 *
 * PATH becomes a symlink to the pseudo-terminal's slave (like docksim --pty); `dockd --device
 * PATH` talks to the firmware through it. Commands, one a line, on standard input or on the
 * control FIFO:
 *
 *   press | release      the tracking button's level
 *   click [MS]           press, and release MS later (default 100)
 *   flip                 flip one bit of the next non-zero byte the host sends (a line error)
 *   inject HEX...        send these bytes to the firmware's UART, as if from the host
 *   status               log one `status` line with both pulses, angles and the LED
 *   cpu                  log one `cpu` line: the AVR's busy and total cycles so far
 *   peek ADDR [N]        log N (default 1, at most 64) bytes of the AVR's data memory from ADDR
 *                        (hex, as avr-nm gives a variable's address: 0x800100 or 0x100)
 *   hang                 the firmware hangs, as a bug would: the CPU spins with interrupts off
 *                        (the servo pulses go on, Timer1 being hardware) until the watchdog
 *                        resets it
 *   reset [MS]           an external reset, as DTR does on an Uno: the AVR restarts after MS of
 *                        bootloader (default 1000), and bytes from the host meanwhile are lost
 *   quit                 stop
 *
 * The line's byte time. libsimavr 1.6 times a UART byte at 11 bits (it counts a parity bit that
 * 8N1 does not send): 93.5 µs at the firmware's 117 647 baud, where silicon takes 85 µs. The
 * harness sets the UART's byte time to 10 bits of the baud rate the firmware configured, so bytes
 * arrive back to back as fast as on the chip; `--byte-us US` sets another byte time for both
 * directions (a faster line than the chip's, to measure how much faster a line the firmware
 * keeps up with).
 *
 * `--profile FILE` writes, at exit, the AVR's cycles by program address (`ADDRESS CYCLES` lines,
 * byte addresses in hex, busy cycles only), for `tools/profile.py` to sum by function.
 *
 * Log lines (standard output or --log FILE), each `EMULATED_S WALL_S WHAT...`, where EMULATED_S
 * is the AVR's time since reset and WALL_S is CLOCK_MONOTONIC, the clock test scripts read:
 *
 *   ready PTY_PATH                               the AVR runs and the pty is there
 *   pulse yaw|pitch WIDTH_US                     a servo pulse whose width differs by 0.5 µs or more from
 *                                                the last one logged
 *   led on|off                                   D13 changed
 *   button pressed|released                      the harness changed D2
 *   flipped BYTE_INDEX                           a bit error was put on the line
 *   status YAW_US PITCH_US YAW_DEG PITCH_DEG LED
 *   host|dock TYPE seq N ... first T             with --trace: each frame on the line, decoded by the
 *                                                firmware's own codec (`host bad checksum_mismatch` ...),
 *                                                stamped when its last byte has crossed the line, T when
 *                                                its first did (the byte after the leading delimiter)
 *   cpu BUSY TOTAL                               cycles the AVR spent awake, and all its cycles, since start
 *   peek ADDR BYTE...                            what `peek` read
 *   hung                                         `hang` took effect
 *   reset MS | booted LOST                       `reset`: the AVR is held in reset (the bootloader) | it
 *                                                starts, LOST host bytes having been dropped since `hang`
 *                                                or `reset`
 *   watchdog-reset                               the firmware restarted without `reset` (the watchdog fired)
 *   lag MS                                       the emulation fell MS behind the wall clock (reported once
 *                                                a second at most); it catches up at 1.5 times the wall
 *                                                clock's pace, and lets go of what is more than 1 s behind
 *   crashed                                      the AVR crashed (dockfw-sim then exits 1)
 *
 * The servo model turns widths into the horn's angle: a pulse of HOME_US is 0°, each µs off is
 * 90°/PER_QUARTER_TURN_US (Firmware/config/dockfw_config.h), the horn turns at up to 600°/s
 * (an SG90's 0.1 s/60°) and ignores changes inside its 5 µs dead band.
 *
 * Written for this project against libsimavr's public API; it contains no simavr code. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <simavr/avr_ioport.h>
#include <simavr/avr_timer.h>
#include <simavr/avr_uart.h>
#include <simavr/sim_avr.h>
#include <simavr/sim_elf.h>
#include <simavr/sim_irq.h>

#include "dock_receiver.h"
#include "dockfw_config.h"

#define FREQUENCY 16000000UL
#define SERVO_SPEED_DEG_S 600.0
#define SERVO_DEAD_BAND_US 5.0

typedef struct {
    const char *name;
    double home_us, per_quarter_turn_us;
    avr_cycle_count_t rise;   /* cycle of the last rising edge, 0 before the first */
    double width_us;          /* the last complete pulse */
    double logged_us;         /* the width last logged */
    double angle_deg;         /* the servo model's horn */
    double commanded_deg;     /* where the horn is heading (outside the dead band) */
    avr_cycle_count_t last_pulse_cycle;
} servo;

static avr_t *avr;
static FILE *log_file;
static servo servos[2] = {
    {"yaw", DOCKFW_YAW_HOME_US, DOCKFW_YAW_PER_QUARTER_TURN_US, 0, 0, -1, 0, 0, 0},
    {"pitch", DOCKFW_PITCH_HOME_US, DOCKFW_PITCH_PER_QUARTER_TURN_US, 0, 0, -1, 0, 0, 0},
};
static int led = -1;
static int master_fd = -1, slave_fd = -1, control_fd = -1;
static const char *pty_link;
static volatile sig_atomic_t should_quit;
static bool uart_xoff;
static bool flip_next;
static uint64_t host_bytes;
/* Bytes waiting for the firmware's UART: from the host and from `inject`. */
static uint8_t to_avr[65536];
static size_t to_avr_head, to_avr_tail;
static avr_irq_t *uart_input, *button_pin;
static avr_cycle_count_t release_at; /* a click's release, 0 when none */
static bool trace;
/* The UART0 model inside libsimavr, whose byte time the harness corrects (see the header). */
static avr_uart_t *uart0;
static avr_cycle_count_t byte_cycles_wanted; /* --byte-us, 0 for 10 bits at the configured baud */
static avr_cycle_count_t byte_cycles_set;    /* what the harness last put there */
/* Cycles the AVR spent awake (not in sleep mode), and with --profile, by word address. */
static avr_cycle_count_t busy_cycles;
static uint64_t *profile;
/* `hang` and `reset`: the AVR is spinning with interrupts off, or held in reset until boot_until. */
static bool is_hung;
static avr_cycle_count_t boot_until;
static uint64_t lost_bytes;
static avr_cycle_count_t host_byte_received; /* when the last byte fed to the UART reaches the AVR */

static double wall_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double emulated_now(void) { return (double)avr->cycle / FREQUENCY; }

/* One log line stamped with the emulated time of `cycle`. */
static void say_at(avr_cycle_count_t cycle, const char *format, va_list arguments) {
    fprintf(log_file, "%.6f %.6f ", (double)cycle / FREQUENCY, wall_now());
    vfprintf(log_file, format, arguments);
    fputc('\n', log_file);
    fflush(log_file);
}

static void say_at_text(avr_cycle_count_t cycle, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    say_at(cycle, format, arguments);
    va_end(arguments);
}

static void say(const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    say_at(avr->cycle, format, arguments);
    va_end(arguments);
}

/* ---- Pins ------------------------------------------------------------------------------------ */

static double width_to_degrees(const servo *s, double width_us) {
    return (width_us - s->home_us) * 90.0 / s->per_quarter_turn_us;
}

/* Moves the horn toward its command for the time since the last pulse. */
static void servo_model_step(servo *s, avr_cycle_count_t now) {
    double seconds = s->last_pulse_cycle ? (double)(now - s->last_pulse_cycle) / FREQUENCY : 0;
    s->last_pulse_cycle = now;
    double target = width_to_degrees(s, s->width_us);
    double dead_band_deg = SERVO_DEAD_BAND_US * 90.0 / fabs(s->per_quarter_turn_us);
    if (fabs(target - s->commanded_deg) > dead_band_deg) s->commanded_deg = target;
    double error = s->commanded_deg - s->angle_deg;
    double step = SERVO_SPEED_DEG_S * seconds;
    s->angle_deg = fabs(error) <= step ? s->commanded_deg : s->angle_deg + (error > 0 ? step : -step);
}

static void servo_pin_changed(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq;
    servo *s = param;
    if (value & 1) {
        s->rise = avr->cycle;
        return;
    }
    if (!s->rise) return;
    s->width_us = (double)(avr->cycle - s->rise) * 1e6 / FREQUENCY;
    servo_model_step(s, avr->cycle);
    if (fabs(s->width_us - s->logged_us) >= 0.5) {
        s->logged_us = s->width_us;
        say("pulse %s %.1f", s->name, s->width_us);
    }
}

static void led_changed(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq;
    (void)param;
    value &= 1;
    if ((int)value == led) return;
    led = (int)value;
    say("led %s", value ? "on" : "off");
}

/* ---- UART ------------------------------------------------------------------------------------ */

static const char *type_name(uint8_t type) {
    static const char *const host[] = {"hello", "heartbeat", "set_velocity", "move_to", "stop", "set_indicator"};
    static const char *const dock[] = {"info", "ack", "nack", "telemetry", "event", "fault"};
    if (type >= 0x01 && type <= 0x06) return host[type - 1];
    if (type >= 0x81 && type <= 0x86) return dock[type - 0x81];
    return "unknown";
}

/* One side of the line as the trace sees it: a receiver, and when the current run began. */
typedef struct {
    const char *name;
    dock_receiver receiver;
    avr_cycle_count_t run_start; /* the cycle of the run's first non-zero byte */
    bool in_run;
} line_side;

static line_side host_side = {"host", {{0}, 0, false}, 0, false}, dock_side = {"dock", {{0}, 0, false}, 0, false};

static void trace_line(const line_side *side, avr_cycle_count_t cycle, const char *format, ...) {
    char text[256];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(text, sizeof text, format, arguments);
    va_end(arguments);
    say_at_text(cycle, "%s %s first %.6f", side->name, text, (double)side->run_start / FREQUENCY);
}

/* With --trace, one line per run on the line, stamped with the time its last byte (the closing
 * delimiter) crossed it: `host|dock TYPE seq N ... first T` or `host|dock bad RESULT first T`,
 * where T is the time of the run's first byte after its leading delimiter; a bad run with a good
 * CRC (unknown type, wrong length, a value out of range) also gives `seq N type 0xTT`. */
static void trace_byte(line_side *side, uint8_t byte, avr_cycle_count_t cycle) {
    static const char *const results[] = {"frame", "oversize", "truncated", "checksum_mismatch",
                                          "unknown_type", "wrong_payload_length", "value_out_of_range"};
    dock_message m;
    dock_decode_status status;
    if (!trace) return;
    if (byte != 0 && !side->in_run) {
        side->in_run = true;
        side->run_start = cycle;
    }
    if (byte == 0) side->in_run = false;
    if (!dock_receiver_feed(&side->receiver, byte, &m, &status)) return;
    if (status.result >= DOCK_RUN_UNKNOWN_TYPE) /* a good CRC: the frame's seq is known */
        trace_line(side, cycle, "bad %s seq %u type 0x%02x", results[status.result], status.seq, status.type);
    else if (status.result != DOCK_RUN_FRAME) trace_line(side, cycle, "bad %s", results[status.result]);
    else if (m.type == DOCK_NACK)
        trace_line(side, cycle, "nack seq %u refused %u type 0x%02x reason %u detail %u", m.seq, m.u.nack.refused_seq,
                   m.u.nack.refused_type, m.u.nack.reason, m.u.nack.detail);
    else if (m.type == DOCK_ACK) trace_line(side, cycle, "ack seq %u acked %u %s", m.seq, m.u.ack.acked_seq, type_name(m.u.ack.acked_type));
    else if (m.type == DOCK_SET_VELOCITY)
        trace_line(side, cycle, "set_velocity seq %u %ld %ld %u", m.seq, (long)m.u.set_velocity.yaw_rate_urad_s,
                   (long)m.u.set_velocity.pitch_rate_urad_s, m.u.set_velocity.ttl_ms);
    else if (m.type == DOCK_MOVE_TO)
        trace_line(side, cycle, "move_to seq %u %ld %ld %u %lu", m.seq, (long)m.u.move_to.yaw_urad, (long)m.u.move_to.pitch_urad,
                   m.u.move_to.pace, (unsigned long)m.u.move_to.value);
    else if (m.type == DOCK_TELEMETRY)
        trace_line(side, cycle, "telemetry seq %u %ld %ld 0x%03x %ld %ld %llu", m.seq, (long)m.u.telemetry.yaw_urad,
                   (long)m.u.telemetry.pitch_urad, m.u.telemetry.flags, (long)m.u.telemetry.yaw_rate_urad_s,
                   (long)m.u.telemetry.pitch_rate_urad_s, (unsigned long long)m.u.telemetry.time_us);
    else if (m.type == DOCK_FAULT) trace_line(side, cycle, "fault seq %u code %u active %u", m.seq, m.u.fault.code, m.u.fault.active);
    else if (m.type == DOCK_EVENT) trace_line(side, cycle, "event seq %u kind %u value %d", m.seq, m.u.event.event, m.u.event.value);
    else trace_line(side, cycle, "%s seq %u", type_name(m.type), m.seq);
}

static void uart_output(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq;
    (void)param;
    uint8_t byte = (uint8_t)value;
    /* The AVR wrote the byte to UDR0: it is on the line for the next byte time. */
    trace_byte(&dock_side, byte, avr->cycle + (uart0 ? uart0->cycles_per_byte : 0));
    /* A host that does not read loses bytes, as on a real line. */
    if (write(master_fd, &byte, 1) < 0 && errno != EAGAIN) { /* nothing else to do */ }
}

static void uart_xon(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq; (void)value; (void)param;
    uart_xoff = false;
}

static void uart_xoff_raised(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq; (void)value; (void)param;
    uart_xoff = true;
}

static void queue_to_avr(const uint8_t *bytes, size_t count) {
    for (size_t i = 0; i < count; i++) {
        size_t next = (to_avr_head + 1) % sizeof to_avr;
        if (next == to_avr_tail) return;
        to_avr[to_avr_head] = bytes[i];
        to_avr_head = next;
    }
}

static void feed_avr(void) {
    if (is_hung || boot_until) {
        /* A hung chip overruns its UART and a resetting one does not listen: the bytes are lost. */
        while (to_avr_tail != to_avr_head) {
            trace_byte(&host_side, to_avr[to_avr_tail], avr->cycle);
            to_avr_tail = (to_avr_tail + 1) % sizeof to_avr;
            lost_bytes++;
        }
        return;
    }
    while (!uart_xoff && to_avr_tail != to_avr_head) {
        uint8_t byte = to_avr[to_avr_tail];
        to_avr_tail = (to_avr_tail + 1) % sizeof to_avr;
        /* The UART model hands the AVR one byte per byte time, the first a byte time after it
         * arrives at an idle line: the time the byte has been received, for the trace. */
        avr_cycle_count_t byte_cycles = uart0 ? uart0->cycles_per_byte : 0;
        host_byte_received = (host_byte_received > avr->cycle ? host_byte_received : avr->cycle) + byte_cycles;
        trace_byte(&host_side, byte, host_byte_received);
        avr_raise_irq(uart_input, byte);
    }
}

/* ---- Faults of the chip ---------------------------------------------------------------------- */

/* The firmware hangs: the CPU is sent to an `rjmp .` in the last word of the flash (which the
 * firmware does not use; Optiboot would be there on an Uno) with interrupts off. Timer1 goes on
 * pulsing the last widths, the UART overruns, and the watchdog resets the chip after its timeout. */
static void hang(void) {
    uint32_t address = (avr->flashend - 1) & ~1u;
    avr->flash[address] = 0xFF; /* rjmp .-2 = 0xCFFF, little-endian */
    avr->flash[address + 1] = 0xCF;
    avr->sreg[S_I] = 0;
    avr->pc = address;
    avr->state = cpu_Running;
    is_hung = true;
    say("hung");
}

/* An external reset (RESET pulled low, as DTR does through the Uno's capacitor): the chip restarts
 * after `ms` in the bootloader, during which no pulses go out and the host's bytes are lost. */
static void external_reset(double ms) {
    avr_reset(avr);
    is_hung = false;
    boot_until = avr->cycle + (avr_cycle_count_t)(ms * FREQUENCY / 1000);
    if (!boot_until) boot_until = 1;
    say("reset %.0f", ms);
}

/* The UART's byte time: 10 bits of the configured baud rate (libsimavr counts 11), or --byte-us. */
static void correct_byte_time(void) {
    if (!uart0 || uart0->cycles_per_byte == byte_cycles_set) return;
    /* libsimavr recomputed it (the firmware wrote the baud rate, or the chip was reset) */
    byte_cycles_set = byte_cycles_wanted ? byte_cycles_wanted : uart0->cycles_per_byte * 10 / 11;
    uart0->cycles_per_byte = byte_cycles_set;
}

static avr_uart_t *find_uart0(void) {
    for (avr_io_t *port = avr->io_port; port; port = port->next)
        if (port->kind && !strcmp(port->kind, "uart") && ((avr_uart_t *)port)->name == '0') return (avr_uart_t *)port;
    return NULL;
}

/* ---- Commands -------------------------------------------------------------------------------- */

static void set_button(bool pressed) {
    avr_raise_irq(button_pin, pressed ? 0 : 1); /* to ground when pressed */
    say("button %s", pressed ? "pressed" : "released");
}

static void command(char *line) {
    char *word = strtok(line, " \t\r\n");
    if (!word) return;
    if (!strcmp(word, "press")) set_button(true);
    else if (!strcmp(word, "release")) set_button(false);
    else if (!strcmp(word, "click")) {
        char *ms = strtok(NULL, " \t\r\n");
        double duration = ms ? atof(ms) : 100;
        set_button(true);
        release_at = avr->cycle + (avr_cycle_count_t)(duration * FREQUENCY / 1000);
    } else if (!strcmp(word, "flip")) flip_next = true;
    else if (!strcmp(word, "inject")) {
        char *hex;
        while ((hex = strtok(NULL, " \t\r\n")) != NULL) {
            uint8_t byte = (uint8_t)strtoul(hex, NULL, 16);
            queue_to_avr(&byte, 1);
        }
    } else if (!strcmp(word, "status"))
        say("status %.1f %.1f %.2f %.2f %s", servos[0].width_us, servos[1].width_us, servos[0].angle_deg,
            servos[1].angle_deg, led == 1 ? "on" : "off");
    else if (!strcmp(word, "cpu")) say("cpu %llu %llu", (unsigned long long)busy_cycles, (unsigned long long)avr->cycle);
    else if (!strcmp(word, "peek")) {
        char *address = strtok(NULL, " \t\r\n"), *count = strtok(NULL, " \t\r\n");
        unsigned long at = address ? strtoul(address, NULL, 16) & 0xFFFF : 0, n = count ? strtoul(count, NULL, 0) : 1;
        char text[3 * 64 + 1] = "";
        for (unsigned long i = 0; i < n && i < 64 && at + i <= avr->ramend; i++)
            snprintf(text + 3 * i, 4, " %02x", avr->data[at + i]);
        say("peek %lx%s", at, text);
    }
    else if (!strcmp(word, "hang")) hang();
    else if (!strcmp(word, "reset")) {
        char *ms = strtok(NULL, " \t\r\n");
        external_reset(ms ? atof(ms) : 1000);
    } else if (!strcmp(word, "quit")) should_quit = 1;
    else fprintf(stderr, "dockfw-sim: unknown command %s\n", word);
}

/* Reads what is there on a command descriptor; runs each complete line. */
static bool read_commands(int fd, char *pending, size_t *count, size_t capacity) {
    ssize_t got = read(fd, pending + *count, capacity - *count - 1);
    if (got == 0) return false; /* end of file */
    if (got < 0) return errno == EAGAIN || errno == EINTR;
    *count += (size_t)got;
    pending[*count] = 0;
    char *start = pending, *newline;
    while ((newline = strchr(start, '\n')) != NULL) {
        *newline = 0;
        command(start);
        start = newline + 1;
    }
    *count = strlen(start);
    memmove(pending, start, *count + 1);
    return true;
}

/* ---- Set-up ---------------------------------------------------------------------------------- */

static void open_pty(const char *link) {
    master_fd = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK);
    if (master_fd < 0 || grantpt(master_fd) || unlockpt(master_fd)) {
        perror("dockfw-sim: posix_openpt");
        exit(1);
    }
    const char *name = ptsname(master_fd);
    /* Hold the slave open, so the master never reads end-of-file between host sessions. */
    slave_fd = open(name, O_RDWR | O_NOCTTY);
    struct termios t;
    if (slave_fd < 0 || tcgetattr(slave_fd, &t)) {
        perror("dockfw-sim: open the pty slave");
        exit(1);
    }
    cfmakeraw(&t);
    cfsetispeed(&t, B115200);
    cfsetospeed(&t, B115200);
    tcsetattr(slave_fd, TCSANOW, &t);
    unlink(link);
    if (symlink(name, link)) {
        perror("dockfw-sim: symlink");
        exit(1);
    }
    pty_link = link;
}

static void on_signal(int number) {
    (void)number;
    should_quit = 1;
}

/* simavr calls this while the AVR sleeps; time is kept by the main loop instead. */
static void sleep_nothing(avr_t *core, avr_cycle_count_t how_long) {
    (void)core;
    (void)how_long;
}

static void usage(void) {
    fprintf(stderr, "usage: dockfw-sim --firmware FILE.elf --pty PATH [--control FIFO] [--log FILE] [--trace] [--quiet]\n"
                    "                  [--byte-us US] [--profile FILE]\n");
    exit(64);
}

int main(int argc, char **argv) {
    const char *firmware = NULL, *pty = NULL, *control = NULL, *log_path = NULL, *profile_path = NULL;
    bool quiet = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--firmware") && i + 1 < argc) firmware = argv[++i];
        else if (!strcmp(argv[i], "--pty") && i + 1 < argc) pty = argv[++i];
        else if (!strcmp(argv[i], "--control") && i + 1 < argc) control = argv[++i];
        else if (!strcmp(argv[i], "--log") && i + 1 < argc) log_path = argv[++i];
        else if (!strcmp(argv[i], "--quiet")) quiet = true;
        else if (!strcmp(argv[i], "--trace")) trace = true;
        else if (!strcmp(argv[i], "--byte-us") && i + 1 < argc) byte_cycles_wanted = (avr_cycle_count_t)(atof(argv[++i]) * FREQUENCY / 1e6);
        else if (!strcmp(argv[i], "--profile") && i + 1 < argc) profile_path = argv[++i];
        else usage();
    }
    if (!firmware || !pty) usage();
    log_file = log_path ? fopen(log_path, "w") : stdout;
    if (!log_file) {
        perror("dockfw-sim: log");
        return 1;
    }

    elf_firmware_t elf;
    memset(&elf, 0, sizeof elf);
    if (elf_read_firmware(firmware, &elf)) {
        fprintf(stderr, "dockfw-sim: cannot read %s\n", firmware);
        return 1;
    }
    avr = avr_make_mcu_by_name("atmega328p");
    if (!avr) return 1;
    avr_init(avr);
    avr->frequency = FREQUENCY;
    avr->log = quiet ? LOG_NONE : LOG_WARNING;
    avr_load_firmware(avr, &elf);
    avr->sleep = sleep_nothing;

    uint32_t flags = 0;
    avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
    flags &= ~(uint32_t)AVR_UART_FLAG_STDIO;
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    uart_input = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), uart_output, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON), uart_xon, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF), uart_xoff_raised, NULL);
    /* The servo pulses are read from Timer1's compare outputs OC1A and OC1B, which drive PB1 and
     * PB2 on the chip: simavr also reports every write to PORTB as a change of those pins, which
     * on real hardware the compare outputs override. */
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_TIMER_GETIRQ('1'), TIMER_IRQ_OUT_COMP + 0), servo_pin_changed, &servos[0]);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_TIMER_GETIRQ('1'), TIMER_IRQ_OUT_COMP + 1), servo_pin_changed, &servos[1]);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('B'), 5), led_changed, NULL);
    button_pin = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('D'), 2);
    uart0 = find_uart0();
    if (!uart0) fprintf(stderr, "dockfw-sim: no UART0 model found; the line runs at libsimavr's 11-bit byte time\n");
    if (profile_path) profile = calloc((avr->flashend + 1) / 2, sizeof *profile);
    avr_raise_irq(button_pin, 1); /* released: the pull-up holds it high */

    dock_receiver_reset(&host_side.receiver);
    dock_receiver_reset(&dock_side.receiver);
    open_pty(pty);
    if (control) {
        unlink(control);
        if (mkfifo(control, 0600)) {
            perror("dockfw-sim: mkfifo");
            return 1;
        }
        control_fd = open(control, O_RDWR | O_NONBLOCK); /* O_RDWR: never end-of-file when writers go */
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGPIPE, SIG_IGN);
    fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);

    say("ready %s", pty);
    double start_wall = wall_now();
    double last_lag_report = 0;
    bool catching_up = false;
    double catch_emulated = 0, catch_wall = 0;
    char stdin_pending[4096], control_pending[4096];
    size_t stdin_count = 0, control_count = 0;
    bool stdin_open = true;
    int state = cpu_Running;
    while (!should_quit && state != cpu_Done && state != cpu_Crashed) {
        /* Run the AVR for about 100 µs of its time, then catch up with the world. */
        avr_cycle_count_t until = avr->cycle + FREQUENCY / 10000;
        if (boot_until) {
            /* In reset: time passes, the AVR does not run. */
            avr->cycle = until;
            if (avr->cycle >= boot_until) {
                boot_until = 0;
                say("booted %llu", (unsigned long long)lost_bytes);
                lost_bytes = 0;
            }
        }
        while (avr->cycle < until && state != cpu_Done && state != cpu_Crashed) {
            avr_cycle_count_t before = avr->cycle;
            avr_flashaddr_t pc = avr->pc;
            bool was_awake = avr->state == cpu_Running;
            state = avr_run(avr);
            if (was_awake) {
                /* A SLEEP instruction's call also runs the sleep itself: count the instruction only. */
                avr_cycle_count_t spent = avr->state == cpu_Sleeping ? 1 : avr->cycle - before;
                busy_cycles += spent;
                if (profile && pc / 2 <= avr->flashend / 2) profile[pc / 2] += spent;
            }
            if (avr->pc == 0 && pc != 0) {
                /* the chip restarted: only the watchdog does that by itself */
                if (is_hung) is_hung = false;
                say("watchdog-reset");
            }
        }
        correct_byte_time();
        if (release_at && avr->cycle >= release_at) {
            release_at = 0;
            set_button(false);
        }
        /* Pacing. The AVR's time follows the wall clock. When the machine was too busy to keep
         * up, it catches up at no more than 1.5 times the wall clock's pace, so that its clock
         * keeps the wall clock's rate over a few seconds, as a crystal does (a host's clock
         * mapping holds), while a host's frames are never squeezed closer than by a third (a
         * heartbeat every 125 ms never looks like 500 ms of silence). More than 1 s behind
         * (the machine was suspended), it lets the time go. */
        double wall = wall_now() - start_wall, emulated = emulated_now();
        if (emulated < wall - 1.0) {
            start_wall += wall - 1.0 - emulated;
            wall = emulated + 1.0;
        }
        double ahead = emulated - wall, wait = 0;
        if (ahead < -0.02 && wall_now() - last_lag_report > 1) {
            last_lag_report = wall_now();
            say("lag %.1f", -ahead * 1000);
        }
        if (ahead >= 0) {
            catching_up = false;
            wait = ahead;
        } else {
            if (!catching_up) {
                catching_up = true;
                catch_emulated = emulated;
                catch_wall = wall;
            }
            double allowed = catch_emulated + 1.5 * (wall - catch_wall);
            if (emulated > allowed) wait = (emulated - allowed) / 1.5;
        }
        struct pollfd fds[3] = {{master_fd, POLLIN, 0}, {0, stdin_open ? POLLIN : 0, 0}, {control_fd, POLLIN, 0}};
        int timeout_ms = wait > 0.001 ? (int)(wait * 1000) : 0;
        if (poll(fds, control_fd >= 0 ? 3 : 2, timeout_ms) > 0) {
            if (fds[0].revents & POLLIN) {
                uint8_t bytes[512];
                ssize_t got = read(master_fd, bytes, sizeof bytes);
                for (ssize_t i = 0; i < got; i++) {
                    if (flip_next && bytes[i] != 0) {
                        bytes[i] ^= 0x08;
                        flip_next = false;
                        say("flipped %llu", (unsigned long long)(host_bytes + (uint64_t)i));
                    }
                }
                if (got > 0) {
                    host_bytes += (uint64_t)got;
                    queue_to_avr(bytes, (size_t)got);
                }
            }
            if (fds[1].revents & (POLLIN | POLLHUP | POLLERR))
                stdin_open = read_commands(0, stdin_pending, &stdin_count, sizeof stdin_pending);
            if (control_fd >= 0 && (fds[2].revents & POLLIN))
                read_commands(control_fd, control_pending, &control_count, sizeof control_pending);
        }
        feed_avr();
    }
    if (state == cpu_Crashed) say("crashed");
    if (profile) {
        FILE *out = fopen(profile_path, "w");
        for (uint32_t word = 0; out && word <= avr->flashend / 2; word++)
            if (profile[word]) fprintf(out, "%x %llu\n", word * 2, (unsigned long long)profile[word]);
        if (out) fclose(out);
    }
    if (pty_link) unlink(pty_link);
    if (control) unlink(control);
    return state == cpu_Crashed ? 1 : 0;
}
