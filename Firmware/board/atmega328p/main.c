/* The board layer for an ATmega328P at 16 MHz (Arduino Uno or Nano): it owns the hardware and
 * hands the portable core (Firmware/core) bytes, the time and the button, and puts the core's
 * servo targets on the pins.
 *
 *   UART0  115200 8N1, interrupt-driven receive and transmit rings (PD0 RX, PD1 TX)
 *   Timer0 1 kHz compare interrupt: the millisecond tick; with TCNT0, a 4 µs clock
 *   Timer1 fast PWM, TOP = ICR1 = 39999 at 2 MHz: a 50 Hz servo frame, pulses on OC1A (PB1, D9:
 *          yaw) and OC1B (PB2, D10: pitch) with 0.5 µs resolution
 *   PD2    (D2) the tracking button to ground, internal pull-up, debounced by the core
 *   PB5    (D13) the status LED
 *   Watchdog 2 s (make WATCHDOG=0 turns it off): a hung firmware resets, and a reset board sends
 *          no servo pulses
 */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>
#include <avr/wdt.h>
#include <util/atomic.h>

#include "dock_firmware.h"
#include "dockfw_info.h"

#ifndef DOCKFW_WATCHDOG
#define DOCKFW_WATCHDOG 1
#endif

#define BAUD_DIVISOR 16 /* U2X: 16 MHz / (8 × 17) = 117 647 baud, 2.1 % from 115 200 */
/* Ring sizes, powers of two up to 256 (8-bit indexes). The receive ring holds 255 bytes: the
 * specification lets a host have at most 256 bytes of frames unanswered (section 4), and the frame
 * being answered is among them, so whatever the host sends waits here while an answer cannot go
 * out, and nothing is lost however slowly the line to the host drains. The transmit ring only
 * needs to keep the line busy: a frame larger than it (info) waits for room in put_byte. */
#define RX_SIZE 256
#define TX_SIZE 64

/* ---- Millisecond tick ------------------------------------------------------------------------ */

/* Microseconds since power-on at the last millisecond tick: only ever added to, so neither the
 * tick nor a reading of the clock costs a 64-bit multiplication. */
static volatile uint64_t tick_us;
static volatile uint8_t has_ticked; /* a millisecond began since the main loop last looked */

ISR(TIMER0_COMPA_vect) {
    tick_us += 1000;
    has_ticked = 1;
}

/* Microseconds since power-on, to 4 µs. */
static uint64_t now_us(void) {
    uint64_t base;
    uint8_t ticks;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
        base = tick_us;
        ticks = TCNT0;
        if ((TIFR0 & _BV(OCF0A)) && ticks < 125) base += 1000; /* the tick is pending, not yet counted */
    }
    return base + (uint16_t)ticks * 4;
}

/* ---- UART ------------------------------------------------------------------------------------ */

static volatile uint8_t rx_ring[RX_SIZE], tx_ring[TX_SIZE];
static volatile uint8_t rx_head, rx_tail, tx_head, tx_tail;
static volatile uint8_t rx_overruns;
static volatile uint8_t rx_peak; /* the most bytes the ring has held: how close it came to full */

ISR(USART_RX_vect) {
    uint8_t status = UCSR0A;
    uint8_t byte = UDR0;
    uint8_t next = (uint8_t)((rx_head + 1) & (RX_SIZE - 1));
    if ((status & (_BV(DOR0) | _BV(FE0))) || next == rx_tail) {
        /* A lost or broken byte: put a delimiter in its place so the damaged frame ends here and
         * fails its check, instead of being merged with the next one. */
        rx_overruns++;
        byte = 0;
        if (next == rx_tail) return;
    }
    rx_ring[rx_head] = byte;
    rx_head = next;
    uint8_t held = (uint8_t)((next - rx_tail) & (RX_SIZE - 1));
    if (held > rx_peak) rx_peak = held;
}

ISR(USART_UDRE_vect) {
    if (tx_head == tx_tail) {
        UCSR0B &= (uint8_t)~_BV(UDRIE0);
        return;
    }
    UDR0 = tx_ring[tx_tail];
    tx_tail = (uint8_t)((tx_tail + 1) & (TX_SIZE - 1));
}

/* The core's byte sink: queue a byte, waiting for room when the ring is full (the transmit
 * interrupt keeps draining it, 11.5 bytes per ms). */
static void put_byte(void *context, uint8_t byte) {
    (void)context;
    uint8_t next = (uint8_t)((tx_head + 1) & (TX_SIZE - 1));
    while (next == tx_tail) wdt_reset();
    tx_ring[tx_head] = byte;
    tx_head = next;
    UCSR0B |= _BV(UDRIE0);
}

static void uart_init(void) {
    /* U2X before the divisor: the order does not matter on silicon, but libsimavr works out the
     * byte time when UBRR0L is written and would otherwise run the line at half speed. */
    UCSR0A = _BV(U2X0);
    UBRR0 = BAUD_DIVISOR;
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00); /* 8N1 */
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
}

/* The next frame's compare values, handed to Timer1 once per 20 ms frame by its overflow
 * interrupt, just after the frame has begun (OCR1A/B are double-buffered in fast PWM: on silicon
 * the new widths take effect at the next frame).
 *
 * The clock is stopped for the two writes and started again. On silicon that costs the frame a
 * fraction of a 0.5 µs tick and nothing else. It is there for libsimavr 1.6 (Debian 12), whose
 * fast-PWM model does not take up an OCR1x written while the timer runs (the pulse keeps its old
 * width, or the pulse train stops) but re-plans the frame correctly when the clock is started. */
static volatile uint16_t next_yaw_ocr, next_pitch_ocr;
static volatile uint8_t is_servo_frame_due; /* the interrupt took the widths: the next ones are wanted */

ISR(TIMER1_OVF_vect) {
    is_servo_frame_due = 1;
    if (OCR1A == next_yaw_ocr && OCR1B == next_pitch_ocr) return;
    TCCR1B = _BV(WGM13) | _BV(WGM12);
    OCR1A = next_yaw_ocr;
    OCR1B = next_pitch_ocr;
    TCCR1B = _BV(WGM13) | _BV(WGM12) | _BV(CS11);
}

/* ---- Servos, button, LED --------------------------------------------------------------------- */

static void timers_init(void) {
    /* Timer0: CTC, clk/64 = 250 kHz, compare at 249: 1 kHz */
    TCCR0A = _BV(WGM01);
    TCCR0B = _BV(CS01) | _BV(CS00);
    OCR0A = 249;
    TIMSK0 = _BV(OCIE0A);
    /* Timer1: fast PWM mode 14 (TOP = ICR1), clk/8 = 2 MHz, non-inverting on OC1A and OC1B */
    ICR1 = 39999; /* 20 ms */
    next_yaw_ocr = dock_servo_pulse_half_us(&dockfw_yaw_servo, 0) - 1;
    next_pitch_ocr = dock_servo_pulse_half_us(&dockfw_pitch_servo, 0) - 1;
    OCR1A = next_yaw_ocr;
    OCR1B = next_pitch_ocr;
    TCCR1A = _BV(COM1A1) | _BV(COM1B1) | _BV(WGM11);
    TCCR1B = _BV(WGM13) | _BV(WGM12) | _BV(CS11);
    TIMSK1 = _BV(TOIE1);
    DDRB |= _BV(PB1) | _BV(PB2) | _BV(PB5);
    PORTD |= _BV(PD2); /* the button's pull-up */
}

/* Maps the pose to the next frame's pulses once per 20 ms servo frame, late in the frame (from
 * 18 ms on), so the widths the frame starts with are at most a few ms old; and the LED. Called once
 * a millisecond. */
#define SERVO_MAP_FROM_TICK 36000 /* of Timer1's 40 000 per frame */

static void update_outputs(const dock_firmware *fw) {
    uint16_t timer;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { timer = TCNT1; } /* a 16-bit read shares TEMP with the interrupt */
    if (is_servo_frame_due && timer >= SERVO_MAP_FROM_TICK) {
        uint16_t yaw = dock_servo_pulse_half_us(&dockfw_yaw_servo, fw->yaw.position_urad) - 1;
        uint16_t pitch = dock_servo_pulse_half_us(&dockfw_pitch_servo, fw->pitch.position_urad) - 1;
        ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
            next_yaw_ocr = yaw;
            next_pitch_ocr = pitch;
        }
        is_servo_frame_due = 0;
    }
    if (fw->is_led_on != !!(PORTB & _BV(PB5))) PINB = _BV(PB5); /* writing 1 to PINB toggles the pin */
}

static dock_firmware fw;

int main(void) {
    MCUSR = 0;
    wdt_disable();
    timers_init();
    uart_init();
    dock_firmware_init(&fw, &dockfw_info, put_byte, 0, 0);
#if DOCKFW_WATCHDOG
    wdt_enable(WDTO_2S);
#endif
    set_sleep_mode(SLEEP_MODE_IDLE);
    sei();
    for (;;) {
        /* One pass: every byte that has arrived goes to the core first (a byte costs the core a
         * store; a frame's last byte, the frame's checks and answer), then the clock work, which
         * only does anything when a millisecond has passed, then the outputs. The clock is read
         * once per pass, and only when a byte or a millisecond has come: a frame is stamped with
         * the time its pass began, which is after its last byte arrived. The outputs are looked at
         * once a millisecond; a pass woken by the transmitter alone does nothing. */
        wdt_reset();
        uint8_t head = rx_head;
        if (rx_tail != head || has_ticked) {
            uint8_t ticked = has_ticked;
            has_ticked = 0;
            uint64_t now = now_us();
            while (rx_tail != head) {
                uint8_t byte = rx_ring[rx_tail];
                rx_tail = (uint8_t)((rx_tail + 1) & (RX_SIZE - 1));
                dock_firmware_receive(&fw, byte, now);
            }
            dock_firmware_set_button(&fw, !(PIND & _BV(PD2)));
            dock_firmware_advance(&fw, now);
            if (ticked) update_outputs(&fw);
        }
        /* Sleep until the next interrupt: a byte, or the tick within 1 ms. */
        cli();
        if (rx_tail == rx_head) {
            sleep_enable();
            sei();
            sleep_cpu();
            sleep_disable();
        }
        sei();
    }
}
