/* USART0 at 115200 baud (U2X, UBRR 16), interrupt driven, with ring buffers. */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>

#include "board.h"

#define RX_SIZE 128 /* powers of two */
#define TX_SIZE 256

static volatile uint8_t rx_buf[RX_SIZE];
static volatile uint8_t rx_head, rx_tail;
static volatile uint8_t tx_buf[TX_SIZE];
static volatile uint8_t tx_head, tx_tail;

ISR(USART0_RX_vect)
{
    uint8_t b = UDR0;
    uint8_t next = (rx_head + 1) & (RX_SIZE - 1);
    if (next != rx_tail) { /* a full buffer drops the byte; the line then fails its CRC */
        rx_buf[rx_head] = b;
        rx_head = next;
    }
}

ISR(USART0_UDRE_vect)
{
    if (tx_head == tx_tail) {
        UCSR0B &= ~_BV(UDRIE0);
        return;
    }
    UDR0 = tx_buf[tx_tail];
    tx_tail = (tx_tail + 1) & (TX_SIZE - 1);
}

void uart_init(void)
{
    UCSR0A = _BV(U2X0);
    UBRR0 = 16;
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
}

uint8_t uart_rx(uint8_t *byte)
{
    if (rx_head == rx_tail)
        return 0;
    *byte = rx_buf[rx_tail];
    rx_tail = (rx_tail + 1) & (RX_SIZE - 1);
    return 1;
}

void uart_tx(uint8_t byte)
{
    uint8_t next = (tx_head + 1) & (TX_SIZE - 1);
    while (next == tx_tail) {
        /* full: sleep until the transmitter frees a slot (UDRE interrupt wakes us) */
        cli();
        if (next == tx_tail) {
            sleep_enable();
            sei();
            sleep_cpu();
            sleep_disable();
        }
        sei();
    }
    tx_buf[tx_head] = byte;
    tx_head = next;
    UCSR0B |= _BV(UDRIE0);
}
