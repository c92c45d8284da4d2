/* kifu sensor board firmware: scan, debounce, report changes, answer commands.
 * The protocol is hardware/PROTOCOL.md.
 */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>
#include <util/crc16.h>

#include "board.h"

#define LINE_MAX 63
#define BOOT_SCANS 20

static char state[POINTS];      /* accepted state: '.', 'X', 'O' or '?' */
static char candidate[POINTS];  /* the state the last scans agree on, if not the accepted one */
static uint8_t agree[POINTS];   /* how many consecutive scans gave the candidate */
static uint8_t raw[POINTS];
static uint16_t seq;            /* last change event's sequence number */

static char line[LINE_MAX + 1];
static uint8_t line_len;
static uint8_t line_overflow;

static void send_identity(void)
{
    out_begin();
    out_str("I ");
    out_uint(PROTOCOL_MAJOR);
    out_char('.');
    out_uint(PROTOCOL_MINOR);
    out_char(' ');
    out_uint(BOARD_W);
    out_char('x');
    out_uint(BOARD_H);
    out_char(' ');
    out_str(FIRMWARE_NAME);
    out_end();
}

static void send_dump(void)
{
    out_begin();
    out_str("D ");
    out_uint(seq);
    out_char(' ');
    for (uint16_t i = 0; i < POINTS; i++)
        out_char(state[i]);
    out_end();
}

static void send_change(uint16_t i)
{
    out_begin();
    out_str("C ");
    out_uint(seq);
    out_char(' ');
    out_uint(i % BOARD_W);
    out_char(' ');
    out_uint(i / BOARD_W);
    out_char(' ');
    out_char(state[i]);
    out_end();
}

static void send_heartbeat(void)
{
    static const char hex[] = "0123456789ABCDEF";
    uint16_t hash = 0;
    for (uint16_t i = 0; i < POINTS; i++)
        hash = _crc_xmodem_update(hash, (uint8_t)state[i]);
    out_begin();
    out_str("H ");
    out_uint(seq);
    out_char(' ');
    for (int8_t shift = 12; shift >= 0; shift -= 4)
        out_char(hex[(hash >> shift) & 0xF]);
    out_end();
}

static void send_settings(void)
{
    out_begin();
    out_str("S DEB=");
    out_uint(settings.debounce);
    out_str(" PER=");
    out_uint(settings.period);
    out_str(" THR=");
    out_uint(settings.threshold);
    out_str(" HB=");
    out_uint(settings.heartbeat);
    out_end();
}

static void send_rows(char kind, const uint8_t *values)
{
    for (uint8_t y = 0; y < BOARD_H; y++) {
        out_begin();
        out_char(kind);
        out_char(' ');
        out_uint(y);
        for (uint8_t x = 0; x < BOARD_W; x++) {
            out_char(' ');
            out_uint(values[y * BOARD_W + x]);
        }
        out_end();
    }
}

static void send_error(const char *code, const char *detail)
{
    out_begin();
    out_str("E ");
    out_str(code);
    out_char(' ');
    out_str(detail);
    out_end();
}

/* One scan: every sensor read and debounced; accepted changes reported when `report`. */
static uint16_t scan(uint8_t report)
{
    uint16_t unsettled = 0;
    scan_read(raw);
    for (uint16_t i = 0; i < POINTS; i++) {
        char now = scan_classify(i, raw[i]);
        if (now == state[i]) {
            agree[i] = 0;
            continue;
        }
        if (now == candidate[i] && agree[i]) {
            if (agree[i] < 255)
                agree[i]++;
        } else {
            candidate[i] = now;
            agree[i] = 1;
        }
        if (agree[i] >= settings.debounce) {
            state[i] = now;
            agree[i] = 0;
            if (report) {
                seq++;
                send_change(i);
            }
        } else {
            unsettled++;
        }
    }
    return unsettled;
}

static void calibrate(void)
{
    static uint16_t sum[POINTS];
    for (uint16_t i = 0; i < POINTS; i++)
        sum[i] = 0;
    for (uint8_t k = 0; k < 8; k++) {
        scan_read(raw);
        for (uint16_t i = 0; i < POINTS; i++)
            sum[i] += raw[i];
    }
    for (uint16_t i = 0; i < POINTS; i++)
        baseline[i] = (uint8_t)((sum[i] + 4) / 8);
    baseline_save();
}

static uint8_t hexval(char c)
{
    if (c >= '0' && c <= '9')
        return (uint8_t)(c - '0');
    if (c >= 'A' && c <= 'F')
        return (uint8_t)(c - 'A' + 10);
    return 0xFF;
}

/* The body of a framed line, NUL-terminated in place, or 0 for a bad frame. */
static char *unframe(char *text, uint8_t len)
{
    uint16_t crc = 0, want = 0;
    if (len < 6 || text[len - 5] != '*')
        return 0;
    for (uint8_t k = len - 4; k < len; k++) {
        uint8_t v = hexval(text[k]);
        if (v == 0xFF)
            return 0;
        want = (uint16_t)(want << 4 | v);
    }
    for (uint8_t k = 0; k < len - 5; k++)
        crc = _crc_xmodem_update(crc, (uint8_t)text[k]);
    if (crc != want)
        return 0;
    text[len - 5] = 0;
    return text;
}

static uint8_t parse_uint(const char **p, uint16_t *out)
{
    uint16_t v = 0;
    uint8_t digits = 0;
    while (**p >= '0' && **p <= '9') {
        if (v > 6553 || digits > 5)
            return 0;
        v = (uint16_t)(v * 10 + (uint16_t)(**p - '0'));
        (*p)++;
        digits++;
    }
    *out = v;
    return digits > 0;
}

/* "S" alone reports; "S KEY=n ..." checks every pair before changing anything. */
static void command_settings(const char *p)
{
    settings_t next = settings;
    while (*p == ' ') {
        uint16_t v;
        const char *key = ++p;
        while (*p && *p != '=' && *p != ' ')
            p++;
        if (*p != '=') {
            send_error("ARG", "expected KEY=n");
            return;
        }
        uint8_t klen = (uint8_t)(p - key);
        p++;
        if (!parse_uint(&p, &v) || (*p && *p != ' ')) {
            send_error("ARG", "bad number");
            return;
        }
        if (klen == 3 && key[0] == 'D' && key[1] == 'E' && key[2] == 'B' && v >= 1 && v <= 20)
            next.debounce = (uint8_t)v;
        else if (klen == 3 && key[0] == 'P' && key[1] == 'E' && key[2] == 'R' && v >= 2 && v <= 100)
            next.period = (uint8_t)v;
        else if (klen == 3 && key[0] == 'T' && key[1] == 'H' && key[2] == 'R' && v >= 4 && v <= 120)
            next.threshold = (uint8_t)v;
        else if (klen == 2 && key[0] == 'H' && key[1] == 'B' && v >= 100 && v <= 10000)
            next.heartbeat = v;
        else {
            send_error("ARG", "unknown setting or out of range");
            return;
        }
    }
    if (*p) {
        send_error("ARG", "expected KEY=n");
        return;
    }
    if (next.debounce != settings.debounce || next.period != settings.period
        || next.threshold != settings.threshold || next.heartbeat != settings.heartbeat) {
        settings = next;
        settings_save();
    }
    send_settings();
}

static void command(char *text, uint8_t len)
{
    char *body = unframe(text, len);
    if (!body) {
        send_error("CRC", "bad checksum or frame");
        return;
    }
    if (body[0] && body[1] == 0) {
        switch (body[0]) {
        case '?': send_identity(); return;
        case 'D': send_dump(); return;
        case 'R': send_rows('R', raw); return;
        case 'B': send_rows('B', baseline); return;
        case 'S': send_settings(); return;
        case 'Z':
            calibrate();
            out_begin();
            out_str("OK Z");
            out_end();
            return;
        }
    } else if (body[0] == 'S' && body[1] == ' ') {
        command_settings(body + 1);
        return;
    }
    send_error("CMD", "unknown command");
}

static void receive(void)
{
    uint8_t b;
    while (uart_rx(&b)) {
        if (b == '\r')
            continue;
        if (b == '\n') {
            if (line_overflow)
                send_error("LEN", "command too long");
            else if (line_len)
                command(line, line_len);
            line_len = 0;
            line_overflow = 0;
        } else if (line_len < LINE_MAX) {
            line[line_len++] = (char)b;
        } else {
            line_overflow = 1;
        }
    }
}

int main(void)
{
    settings_load();
    for (uint16_t i = 0; i < POINTS; i++) {
        state[i] = '?';
        candidate[i] = '?';
        agree[i] = 0;
    }
    clock_init();
    uart_init();
    scan_init();
    sei();

    /* Settle quietly: up to BOOT_SCANS scans; points still unsettled stay '?' and are
     * reported by change events once they settle. */
    for (uint8_t k = 0; k < BOOT_SCANS; k++) {
        uint32_t start = clock_ms();
        if (scan(0) == 0 && k + 1 >= settings.debounce)
            break;
        while (clock_ms() - start < settings.period)
            ;
    }
    send_identity();
    if (!calibrated)
        send_error("CAL", "no calibration stored");

    uint32_t last_scan = clock_ms();
    uint32_t last_beat = last_scan;
    set_sleep_mode(SLEEP_MODE_IDLE);
    for (;;) {
        receive();
        uint32_t now = clock_ms();
        if (now - last_scan >= settings.period) {
            last_scan = now;
            scan(1);
        }
        if (now - last_beat >= settings.heartbeat) {
            last_beat = now;
            send_heartbeat();
        }
        /* Sleep until the next interrupt (the 1 ms tick at the latest). */
        sleep_enable();
        sleep_cpu();
        sleep_disable();
    }
}
