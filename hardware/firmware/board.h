/* kifu sensor board firmware: board geometry, pins and shared declarations.
 * Target: ATmega2560 at 16 MHz (Arduino Mega 2560 or a bare chip).
 * Copyright (c) kifu authors; MIT licence, as the rest of kifu (not the simulation harness).
 */
#ifndef KIFU_BOARD_H
#define KIFU_BOARD_H

#include <stdint.h>

#ifndef BOARD_W
#define BOARD_W 19
#endif
#ifndef BOARD_H
#define BOARD_H 19
#endif
#define POINTS (BOARD_W * BOARD_H)

#define PROTOCOL_MAJOR 1
#define PROTOCOL_MINOR 0
#define FIRMWARE_NAME "kifu-avr-0.1"

/* Sensors sit on 23 CD74HC4067 16-channel analogue multiplexers. Select lines S0..S3 are
 * PA0..PA3, shared by all multiplexers. Multiplexers come in three banks of 8; bank b's
 * enable (active low) is PA4 + b. Multiplexer m of each bank drives ADC channel m, so
 * the banks share ADC0..ADC7 and only the enabled bank drives the line.
 * Sensor index s (= y * BOARD_W + x) is bank s / 128, multiplexer (s % 128) / 16,
 * input s % 16. */
#define MUX_INPUTS 16
#define MUXES_PER_BANK 8
#define BANK_SIZE (MUX_INPUTS * MUXES_PER_BANK)
#define BANKS ((POINTS + BANK_SIZE - 1) / BANK_SIZE)

/* Settings (kept in EEPROM). */
typedef struct {
    uint8_t debounce;   /* identical scans that make a change, 1..20 */
    uint8_t period;     /* scan period, ms, 2..100 */
    uint8_t threshold;  /* ADC steps from the baseline that read as a stone, 4..120 */
    uint16_t heartbeat; /* ms, 100..10000 */
} settings_t;

extern settings_t settings;
extern uint8_t baseline[POINTS];
extern uint8_t calibrated;

/* settings.c */
void settings_load(void);
void settings_save(void);
void baseline_save(void);

/* uart.c */
void uart_init(void);
uint8_t uart_rx(uint8_t *byte); /* 1 and a byte if one is waiting */
void uart_tx(uint8_t byte);     /* waits while the transmit buffer is full */

/* clock.c */
void clock_init(void);
uint32_t clock_ms(void);

/* out.c: framed lines */
void out_begin(void);
void out_char(char c);
void out_str(const char *s);
void out_uint(uint16_t n);
void out_end(void);

/* scan.c */
void scan_init(void);
void scan_read(uint8_t *raw);        /* one reading of every sensor into raw[POINTS] */
char scan_classify(uint16_t i, uint8_t raw); /* '.', 'X' or 'O' */

#endif
