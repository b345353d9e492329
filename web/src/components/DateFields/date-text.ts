import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import 'dayjs/locale/fr';

dayjs.extend(customParseFormat);

/** How a date is shown and typed: « 14/05/2011 » (decision 103). */
export const DATE_FORMAT = 'DD/MM/YYYY';
/** How a Paris date-time is shown: « 14/05/2026 20 h 35 » (decision 103). */
export const DATE_TIME_FORMAT = 'DD/MM/YYYY HH [h] mm';

const DAYS = ['DD/MM/YYYY', 'D/M/YYYY', 'D/MM/YYYY', 'DD/M/YYYY'];
const TIMES = ['HH [h] mm', 'H [h] mm', 'HH[h]mm', 'H[h]mm', 'HH:mm', 'H:mm'];
const DATE_TIMES = DAYS.flatMap((day) => TIMES.map((time) => `${day} ${time}`));

/** A typed French date (« 14/05/2011 », « 1/5/2011 ») as 'YYYY-MM-DD', or null when it names no real day. */
export function parseFrenchDate(text: string): string | null {
  const parsed = dayjs(text.trim(), DAYS, 'fr', true);
  return parsed.isValid() ? parsed.format('YYYY-MM-DD') : null;
}

/**
 * A typed French date-time (« 14/05/2026 20 h 35 », « 14/05/2026 20:35 ») as the date inputs' value
 * 'YYYY-MM-DD HH:mm:ss', or null. The text is wall-clock time: nothing is converted between zones here.
 */
export function parseFrenchDateTime(text: string): string | null {
  const parsed = dayjs(text.trim().replace(/\s+/g, ' '), DATE_TIMES, 'fr', true);
  return parsed.isValid() ? parsed.format('YYYY-MM-DD HH:mm:ss') : null;
}

/** A Paris wall clock 'YYYY-MM-DDTHH:mm' (contract/src/dates.ts) as the date inputs' 'YYYY-MM-DD HH:mm:ss'. */
export const wallClockToInput = (wall: string): string | null => (wall ? `${wall.replace('T', ' ')}:00` : null);

/** The date inputs' 'YYYY-MM-DD HH:mm:ss' back to the wall clock 'YYYY-MM-DDTHH:mm' the pages already send. */
export const inputToWallClock = (value: string | null): string => (value ? `${value.slice(0, 10)}T${value.slice(11, 16) || '00:00'}` : '');
