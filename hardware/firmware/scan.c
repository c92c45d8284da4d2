/* Scanning the sensors through the multiplexers with the ADC, and telling black, white and
 * empty from a reading against the sensor's baseline. */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>
#include <util/delay.h>

#include "board.h"

void scan_init(void)
{
    DDRA = 0x7F;                   /* PA0..3 select, PA4..6 bank enables (active low) */
    PORTA = 0x70;                  /* all banks disabled */
    ADMUX = _BV(REFS0) | _BV(ADLAR); /* AVCC reference, 8-bit result in ADCH */
    /* prescaler 16: 1 MHz ADC clock, 13 us a reading; the interrupt ends each wait */
    ADCSRA = _BV(ADEN) | _BV(ADIE) | _BV(ADPS2);
    set_sleep_mode(SLEEP_MODE_IDLE);
    DIDR0 = 0xFF;                  /* no digital input buffers on the analogue pins */
}

EMPTY_INTERRUPT(ADC_vect); /* a finished conversion only wakes the CPU */

/* One conversion, the CPU asleep (idle) meanwhile: quieter for the ADC, and cheaper. */
static uint8_t convert(uint8_t channel)
{
    ADMUX = _BV(REFS0) | _BV(ADLAR) | (channel & 7);
    ADCSRA |= _BV(ADSC);
    while (ADCSRA & _BV(ADSC)) {
        cli();
        if (ADCSRA & _BV(ADSC)) {
            sleep_enable();
            sei();
            sleep_cpu();
            sleep_disable();
        }
        sei();
    }
    return ADCH;
}

void scan_read(uint8_t *raw)
{
    for (uint8_t bank = 0; bank < BANKS; bank++) {
        PORTA = (uint8_t)((PORTA & 0x80) | (0x70 & ~_BV(4 + bank)));
        for (uint8_t input = 0; input < MUX_INPUTS; input++) {
            PORTA = (uint8_t)((PORTA & 0xF0) | input);
            _delay_us(1); /* multiplexer settling */
            for (uint8_t mux = 0; mux < MUXES_PER_BANK; mux++) {
                uint16_t s = (uint16_t)bank * BANK_SIZE + mux * MUX_INPUTS + input;
                if (s < POINTS)
                    raw[s] = convert(mux);
            }
        }
    }
    PORTA |= 0x70;
}

char scan_classify(uint16_t i, uint8_t raw)
{
    int16_t d = (int16_t)raw - (int16_t)baseline[i];
    if (d >= (int16_t)settings.threshold)
        return 'X';
    if (d <= -(int16_t)settings.threshold)
        return 'O';
    return '.';
}
