/*
 * kifu-sim: runs the kifu sensor board firmware under simavr, with simulated hall sensors
 * and the board's UART on a pseudo-terminal.
 *
 * Copyright (c) kifu authors.
 * This program links libsimavr, which is GPL-3; this harness is therefore licensed under
 * the GNU General Public License, version 3 or later. (The firmware it runs and the rest
 * of kifu are not linked with it and keep their own licence.)
 *
 * Usage: kifu-sim [--realtime] [--spread STEPS] [--seed N] FIRMWARE.elf
 *
 * It prints "pty /dev/pts/N" and then reads commands on stdin, one per line, answering
 * each with one line ("ok ...", "pty ...", or "error ..."):
 *   run MS            advance simulated time by MS milliseconds (lock-step)
 *   time              the simulated time in ms since start
 *   place X Y b|w     put a black or white stone on point (X, Y), (0, 0) lower left
 *   lift X Y          take the stone off
 *   set X Y MV        force a sensor's output to MV millivolts
 *   garble HEX        send these bytes to the host as if they came from the board
 *   unplug            power the board off and close the pty
 *   plug              power the board on again (a reset) on a new pty
 *   quit
 * Without --realtime, time advances only on "run", so tests are deterministic. With
 * --realtime, the firmware runs continuously at wall-clock speed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <pty.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <simavr/avr_adc.h>
#include <simavr/avr_ioport.h>
#include <simavr/avr_uart.h>
#include <simavr/sim_avr.h>
#include <simavr/sim_elf.h>

#define W 19
#define H 19
#define POINTS (W * H)
#define FREQ 16000000UL
#define CYCLES_PER_MS (FREQ / 1000)
#define QUIESCENT_MV 2500
#define STONE_MV 1200
#define MUX_INPUTS 16
#define MUXES_PER_BANK 8
#define BANK_SIZE (MUX_INPUTS * MUXES_PER_BANK)

static avr_t *avr;
static FILE *out; /* replies; stdout itself goes to stderr, where simavr's own messages belong */
static avr_cycle_count_t origin;   /* cycle count at power-up */
static uint64_t powered_ms;        /* simulated ms of earlier power-on periods */
static uint64_t off_ms;            /* simulated ms spent unplugged */
static int plugged = 1;

static int quiescent[POINTS];      /* each sensor's output with no field, mV */
static int field[POINTS];          /* what the stone adds, mV */
static int forced[POINTS];         /* -1, or a forced output in mV */

static int master = -1, slave = -1;
static char pty_name[128];
static uint8_t to_host[1 << 16];
static size_t to_host_len;
static uint8_t to_board[4096];
static size_t to_board_len;
static int uart_xoff;

static uint64_t now_ms(void)
{
    uint64_t t = powered_ms + off_ms;
    if (plugged)
        t += (avr->cycle - origin) / CYCLES_PER_MS;
    return t;
}

static size_t written; /* bytes written to the pty since the last settle_pty() */

static void flush_to_host(void)
{
    if (master < 0) {
        to_host_len = 0;
        return;
    }
    while (to_host_len) {
        ssize_t n = write(master, to_host, to_host_len);
        if (n <= 0)
            return; /* the pty is full or closed: keep the bytes for later */
        memmove(to_host, to_host + n, to_host_len - (size_t)n);
        to_host_len -= (size_t)n;
        written += (size_t)n;
    }
}

static int slave_queue(void)
{
    int n = 0;
    if (slave < 0 || ioctl(slave, FIONREAD, &n) != 0)
        return -1;
    return n;
}

/* The kernel moves bytes from the pty master to the slave's queue asynchronously. Before
 * answering a command, wait (briefly) until all bytes written have arrived, so that the
 * host reads exactly what the board sent by this simulated time: determinism. */
static void settle_pty(int before)
{
    size_t want = written;
    written = 0;
    if (before < 0 || !want)
        return;
    for (int k = 0; k < 2000; k++) { /* at most ~100 ms of wall time */
        int now = slave_queue();
        if (now < 0 || (size_t)now >= (size_t)before + want)
            return;
        struct timespec pause = {0, 50000};
        nanosleep(&pause, NULL);
    }
}

static void feed_board(void)
{
    while (to_board_len && !uart_xoff) {
        uint8_t b = to_board[0];
        memmove(to_board, to_board + 1, --to_board_len);
        avr_raise_irq(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT), b);
    }
}

static void read_from_host(void)
{
    if (master < 0)
        return;
    while (to_board_len < sizeof to_board) {
        ssize_t n = read(master, to_board + to_board_len, sizeof to_board - to_board_len);
        if (n <= 0)
            break;
        to_board_len += (size_t)n;
    }
    feed_board();
}

static void on_uart_output(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    if (master >= 0 && to_host_len < sizeof to_host)
        to_host[to_host_len++] = (uint8_t)value;
}

static void on_uart_xon(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)value;
    (void)param;
    uart_xoff = 0;
    feed_board();
}

static void on_uart_xoff(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)value;
    (void)param;
    uart_xoff = 1;
}

/* A conversion starts: put the selected sensor's voltage on the converted channel. */
static void on_adc_trigger(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    union {
        avr_adc_mux_t mux;
        uint32_t v;
    } e = {.v = value};
    if (e.mux.kind != ADC_MUX_SINGLE || e.mux.src >= MUXES_PER_BANK)
        return;
    avr_ioport_state_t port;
    if (avr_ioctl(avr, AVR_IOCTL_IOPORT_GETSTATE('A'), &port) != 0)
        return;
    int bank = -1; /* enables are active low; exactly one bank should be enabled */
    for (int b = 0; b < 3; b++)
        if (!(port.port & (0x10 << b)))
            bank = bank < 0 ? b : -2;
    int mv = 0; /* no bank, or two banks fighting: read it as 0 V */
    if (bank >= 0) {
        int s = bank * BANK_SIZE + (int)e.mux.src * MUX_INPUTS + (port.port & 0x0F);
        if (s < POINTS)
            mv = forced[s] >= 0 ? forced[s] : quiescent[s] + field[s];
    }
    avr_raise_irq(avr_io_getirq(avr, AVR_IOCTL_ADC_GETIRQ, ADC_IRQ_ADC0 + e.mux.src),
                  (uint32_t)mv);
}

static void no_sleep(avr_t *a, avr_cycle_count_t how_long)
{
    (void)a;
    (void)how_long; /* lock-step: sleeping costs no wall time */
}

static int open_pty(void)
{
    struct termios raw;
    if (openpty(&master, &slave, pty_name, NULL, NULL) != 0)
        return -1;
    tcgetattr(slave, &raw);
    cfmakeraw(&raw);
    tcsetattr(slave, TCSANOW, &raw);
    fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
    return 0;
}

static void close_pty(void)
{
    if (master >= 0)
        close(master);
    if (slave >= 0)
        close(slave);
    master = slave = -1;
    to_host_len = to_board_len = 0;
}

static int run_ms(uint64_t ms)
{
    if (!plugged) {
        off_ms += ms;
        return 0;
    }
    int before = slave_queue();
    written = 0;
    for (uint64_t k = 0; k < ms; k++) {
        avr_cycle_count_t target = avr->cycle + CYCLES_PER_MS;
        read_from_host();
        while (avr->cycle < target) {
            int state = avr_run(avr);
            if (state == cpu_Done || state == cpu_Crashed)
                return -1;
        }
        flush_to_host();
    }
    settle_pty(before);
    return 0;
}

static int point_arg(const char *args, int *x, int *y, char *rest, size_t rest_size)
{
    char buf[64] = "";
    int n = sscanf(args, "%d %d %63s", x, y, buf);
    if (n < 2 || *x < 0 || *x >= W || *y < 0 || *y >= H)
        return -1;
    if (rest) {
        snprintf(rest, rest_size, "%s", buf);
    }
    return n;
}

static void command(char *line)
{
    char verb[16] = "";
    int x, y, used = 0;
    line[strcspn(line, "\r\n")] = 0;
    if (sscanf(line, "%15s %n", verb, &used) < 1)
        return;
    const char *args = line + used;
    if (!strcmp(verb, "run")) {
        char *end;
        unsigned long long ms = strtoull(args, &end, 10);
        if (end == args || ms > 3600000ULL) {
            fprintf(out, "error run needs milliseconds (0..3600000), got '%s'\n", args);
        } else if (run_ms(ms) != 0) {
            fprintf(out, "error firmware stopped at %llu ms\n", (unsigned long long)now_ms());
        } else {
            fprintf(out, "ok %llu\n", (unsigned long long)now_ms());
        }
    } else if (!strcmp(verb, "time")) {
        fprintf(out, "ok %llu\n", (unsigned long long)now_ms());
    } else if (!strcmp(verb, "place")) {
        char color[64];
        if (point_arg(args, &x, &y, color, sizeof color) != 3 || (strcmp(color, "b") && strcmp(color, "w")))
            fprintf(out, "error place needs X Y b|w on a %dx%d board, got '%s'\n", W, H, args);
        else {
            field[y * W + x] = color[0] == 'b' ? STONE_MV : -STONE_MV;
            fprintf(out, "ok\n");
        }
    } else if (!strcmp(verb, "lift")) {
        if (point_arg(args, &x, &y, NULL, 0) < 2)
            fprintf(out, "error lift needs X Y on a %dx%d board, got '%s'\n", W, H, args);
        else {
            field[y * W + x] = 0;
            fprintf(out, "ok\n");
        }
    } else if (!strcmp(verb, "set")) {
        char mv[64];
        if (point_arg(args, &x, &y, mv, sizeof mv) != 3)
            fprintf(out, "error set needs X Y MV, got '%s'\n", args);
        else {
            forced[y * W + x] = atoi(mv) < 0 ? -1 : atoi(mv);
            fprintf(out, "ok\n");
        }
    } else if (!strcmp(verb, "garble")) {
        size_t len = strlen(args);
        if (len % 2) {
            fprintf(out, "error garble needs hex bytes, got '%s'\n", args);
        } else {
            for (size_t k = 0; k + 1 < len && to_host_len < sizeof to_host; k += 2) {
                unsigned v;
                sscanf(args + k, "%2x", &v);
                to_host[to_host_len++] = (uint8_t)v;
            }
            int before = slave_queue();
            written = 0;
            flush_to_host();
            settle_pty(before);
            fprintf(out, "ok\n");
        }
    } else if (!strcmp(verb, "unplug")) {
        if (plugged) {
            powered_ms += (avr->cycle - origin) / CYCLES_PER_MS;
            plugged = 0;
            close_pty();
        }
        fprintf(out, "ok\n");
    } else if (!strcmp(verb, "plug")) {
        if (!plugged) {
            avr_reset(avr);
            origin = avr->cycle;
            uart_xoff = 0;
            plugged = 1;
            if (open_pty() != 0) {
                fprintf(out, "error cannot open a pty: %s\n", strerror(errno));
                fflush(out);
                return;
            }
        }
        fprintf(out, "pty %s\n", pty_name);
    } else if (!strcmp(verb, "quit")) {
        fprintf(out, "ok\n");
        fflush(out);
        exit(0);
    } else {
        fprintf(out, "error unknown command '%s'\n", verb);
    }
    fflush(out);
}

int main(int argc, char **argv)
{
    int realtime = 0, spread = 0;
    unsigned seed = 1;
    const char *elf = NULL;
    for (int k = 1; k < argc; k++) {
        if (!strcmp(argv[k], "--realtime"))
            realtime = 1;
        else if (!strcmp(argv[k], "--spread") && k + 1 < argc)
            spread = atoi(argv[++k]);
        else if (!strcmp(argv[k], "--seed") && k + 1 < argc)
            seed = (unsigned)strtoul(argv[++k], NULL, 10);
        else
            elf = argv[k];
    }
    if (!elf) {
        fprintf(stderr, "usage: %s [--realtime] [--spread MV] [--seed N] FIRMWARE.elf\n", argv[0]);
        return 2;
    }
    out = fdopen(dup(1), "w");
    dup2(2, 1);
    elf_firmware_t fw;
    memset(&fw, 0, sizeof fw);
    if (elf_read_firmware(elf, &fw) != 0) {
        fprintf(stderr, "%s: cannot read the firmware ELF\n", elf);
        return 1;
    }
    strcpy(fw.mmcu, "atmega2560");
    fw.frequency = FREQ;
    avr = avr_make_mcu_by_name(fw.mmcu);
    if (!avr || avr_init(avr) != 0) {
        fprintf(stderr, "simavr has no atmega2560\n");
        return 1;
    }
    avr_load_firmware(avr, &fw);
    avr->vcc = avr->avcc = avr->aref = 5000;
    avr->log = LOG_NONE;
    avr->sleep = no_sleep; /* time is paced here, not by simavr's sleeps */

    /* Sensors differ: a seeded spread of quiescent outputs (calibration removes it). */
    srand(seed);
    for (int i = 0; i < POINTS; i++) {
        quiescent[i] = QUIESCENT_MV + (spread ? rand() % (2 * spread + 1) - spread : 0);
        field[i] = 0;
        forced[i] = -1;
    }

    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT),
                            on_uart_output, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON),
                            on_uart_xon, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF),
                            on_uart_xoff, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_ADC_GETIRQ, ADC_IRQ_OUT_TRIGGER),
                            on_adc_trigger, NULL);
    /* The UART would otherwise print the firmware's output on simavr's stdout as well. */
    uint32_t flags = 0;
    avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
    flags &= ~(uint32_t)(AVR_UART_FLAG_STDIO | AVR_UART_FLAG_POLL_SLEEP);
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);

    if (open_pty() != 0) {
        fprintf(stderr, "cannot open a pty: %s\n", strerror(errno));
        return 1;
    }
    origin = avr->cycle;
    fprintf(out, "pty %s\n", pty_name);
    fflush(out);

    char line[4096];
    if (!realtime) {
        while (fgets(line, sizeof line, stdin))
            command(line);
        return 0;
    }
    /* Real time: run 1 ms slices paced by the wall clock, taking commands between them. */
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    uint64_t simulated = 0;
    for (;;) {
        struct pollfd in = {.fd = 0, .events = POLLIN};
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        uint64_t wall = (uint64_t)(t.tv_sec - start.tv_sec) * 1000
                      + (uint64_t)(t.tv_nsec - start.tv_nsec) / 1000000;
        int wait = simulated < wall ? 0 : 1;
        if (poll(&in, 1, wait) > 0) {
            if (!fgets(line, sizeof line, stdin))
                return 0;
            command(line);
        }
        if (simulated <= wall) {
            if (run_ms(1) != 0) {
                fprintf(stderr, "firmware stopped\n");
                return 1;
            }
            simulated++;
        }
    }
}
