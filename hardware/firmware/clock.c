/* A millisecond clock on Timer1 (CTC, 16 MHz / 64 / 250 = 1 kHz). */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <util/atomic.h>

#include "board.h"

static volatile uint32_t ticks;

ISR(TIMER1_COMPA_vect) { ticks++; }

void clock_init(void)
{
    TCCR1A = 0;
    TCCR1B = _BV(WGM12) | _BV(CS11) | _BV(CS10);
    OCR1A = 249;
    TIMSK1 = _BV(OCIE1A);
}

uint32_t clock_ms(void)
{
    uint32_t t;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { t = ticks; }
    return t;
}
