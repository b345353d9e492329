import { useRef, type ReactNode } from 'react';
import { DateInput, DatesProvider, type CalendarAriaLabels, type DateInputProps } from '@mantine/dates';
// The calendar's styles load with the pages that hold a date field, never in the first chunk (decision 103).
import '@mantine/dates/styles.css';
import { DATE_FORMAT, DATE_TIME_FORMAT, inputToWallClock, parseFrenchDate, parseFrenchDateTime, wallClockToInput } from './date-text';
import { dateOutOfRange, useTypedError, withFormat } from './typed-date';

const ARIA_LABELS: CalendarAriaLabels = {
  monthLevelControl: 'Choisir le mois',
  yearLevelControl: 'Choisir l’année',
  nextMonth: 'Mois suivant',
  previousMonth: 'Mois précédent',
  nextYear: 'Année suivante',
  previousYear: 'Année précédente',
  nextDecade: 'Décennie suivante',
  previousDecade: 'Décennie précédente',
};

function FrenchDates({ children }: { children: ReactNode }) {
  return <DatesProvider settings={{ locale: 'fr', firstDayOfWeek: 1 }}>{children}</DatesProvider>;
}

type FieldProps = Omit<
  DateInputProps,
  'value' | 'defaultValue' | 'onChange' | 'valueFormat' | 'dateParser' | 'withTime' | 'minDate' | 'maxDate' | 'error'
> & {
  /** '' when empty. */
  value: string;
  onChange: (value: string) => void;
  error?: ReactNode;
};

export type DateFieldProps = FieldProps & { maxDate?: string };

/**
 * A date typed or picked as « 14/05/2011 » (decision 103); the value stays 'YYYY-MM-DD', as an
 * <input type="date"> gave it. `maxDate` is a 'YYYY-MM-DD'.
 */
export function DateField({ value, onChange, error, onBlur, maxDate, description, ...rest }: DateFieldProps) {
  const { typedError, clear, onTyped } = useTypedError(parseFrenchDate, 'JJ/MM/AAAA', dateOutOfRange(maxDate));
  return (
    <FrenchDates>
      <DateInput
        placeholder="JJ/MM/AAAA"
        {...rest}
        description={withFormat('JJ/MM/AAAA', description)}
        valueFormat={DATE_FORMAT}
        dateParser={parseFrenchDate}
        maxDate={maxDate}
        allowDeselect
        ariaLabels={ARIA_LABELS}
        value={value || null}
        error={error || typedError}
        onChange={(next) => {
          clear();
          onChange(next ?? '');
        }}
        onBlur={(event) => {
          onTyped(event, value || null);
          onBlur?.(event);
        }}
      />
    </FrenchDates>
  );
}

/**
 * A Paris date and time typed or picked as « 14/05/2026 20 h 35 » (decision 103); the value stays the
 * wall clock 'YYYY-MM-DDTHH:mm' of contract/src/dates.ts, as an <input type="datetime-local"> gave it.
 * A day picked in the calendar keeps the time already there.
 */
export function DateTimeField({ value, onChange, error, onBlur, getDayProps, description, ...rest }: FieldProps) {
  const { typedError, clear, onTyped } = useTypedError(parseFrenchDateTime, 'JJ/MM/AAAA HH h MM', 'Date refusée.');
  const picked = useRef(false);
  return (
    <FrenchDates>
      <DateInput
        placeholder="JJ/MM/AAAA HH h MM"
        {...rest}
        description={withFormat('JJ/MM/AAAA HH h MM', description)}
        valueFormat={DATE_TIME_FORMAT}
        dateParser={parseFrenchDateTime}
        withTime
        allowDeselect
        ariaLabels={ARIA_LABELS}
        value={wallClockToInput(value)}
        error={error || typedError}
        getDayProps={(day) => ({
          ...getDayProps?.(day),
          onClick: () => {
            picked.current = true;
          },
        })}
        onChange={(next) => {
          clear();
          let wall = inputToWallClock(next);
          if (picked.current && wall && value) wall = `${wall.slice(0, 10)}${value.slice(10)}`;
          picked.current = false;
          onChange(wall);
        }}
        onBlur={(event) => {
          onTyped(event, wallClockToInput(value));
          onBlur?.(event);
        }}
      />
    </FrenchDates>
  );
}
