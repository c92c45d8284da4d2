/* Framed output lines: body, '*', CRC-16/XMODEM of the body in four hex digits, '\n'. */
#include <util/crc16.h>

#include "board.h"

static uint16_t crc;

void out_begin(void) { crc = 0; }

void out_char(char c)
{
    crc = _crc_xmodem_update(crc, (uint8_t)c);
    uart_tx((uint8_t)c);
}

void out_str(const char *s)
{
    while (*s)
        out_char(*s++);
}

void out_uint(uint16_t n)
{
    char digits[5];
    uint8_t k = 0;
    do {
        digits[k++] = (char)('0' + n % 10);
        n /= 10;
    } while (n);
    while (k)
        out_char(digits[--k]);
}

void out_end(void)
{
    static const char hex[] = "0123456789ABCDEF";
    uart_tx('*');
    for (int8_t shift = 12; shift >= 0; shift -= 4)
        uart_tx((uint8_t)hex[(crc >> shift) & 0xF]);
    uart_tx('\n');
}
