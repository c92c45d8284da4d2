/* Settings and per-sensor baselines in EEPROM, each behind a magic byte so that a blank
 * (0xFF) or foreign EEPROM gives the defaults. */
#include <avr/eeprom.h>

#include "board.h"

#define SETTINGS_MAGIC 0x4B
#define BASELINE_MAGIC 0xA5
#define ADDR_SETTINGS_MAGIC ((uint8_t *)0)
#define ADDR_SETTINGS ((void *)1)
#define ADDR_BASELINE_MAGIC ((uint8_t *)15)
#define ADDR_BASELINE ((void *)16)
#define NOMINAL 128 /* half the supply: a hall sensor with no field */

settings_t settings;
uint8_t baseline[POINTS];
uint8_t calibrated;

static uint8_t valid(const settings_t *s)
{
    return s->debounce >= 1 && s->debounce <= 20 && s->period >= 2 && s->period <= 100
        && s->threshold >= 4 && s->threshold <= 120 && s->heartbeat >= 100
        && s->heartbeat <= 10000;
}

void settings_load(void)
{
    settings_t stored;
    settings.debounce = 3;
    settings.period = 10;
    settings.threshold = 24;
    settings.heartbeat = 1000;
    if (eeprom_read_byte(ADDR_SETTINGS_MAGIC) == SETTINGS_MAGIC) {
        eeprom_read_block(&stored, ADDR_SETTINGS, sizeof stored);
        if (valid(&stored))
            settings = stored;
    }
    calibrated = eeprom_read_byte(ADDR_BASELINE_MAGIC) == BASELINE_MAGIC;
    if (calibrated) {
        eeprom_read_block(baseline, ADDR_BASELINE, POINTS);
    } else {
        for (uint16_t i = 0; i < POINTS; i++)
            baseline[i] = NOMINAL;
    }
}

void settings_save(void)
{
    eeprom_update_block(&settings, ADDR_SETTINGS, sizeof settings);
    eeprom_update_byte(ADDR_SETTINGS_MAGIC, SETTINGS_MAGIC);
}

void baseline_save(void)
{
    eeprom_update_block(baseline, ADDR_BASELINE, POINTS);
    eeprom_update_byte(ADDR_BASELINE_MAGIC, BASELINE_MAGIC);
    calibrated = 1;
}
