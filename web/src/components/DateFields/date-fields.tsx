import { useRef, useState, type FocusEvent, type ReactNode } from 'react';
import { DateInput, DatesProvider, type CalendarAriaLabels, type DateInputProps } from '@mantine/dates';
// The calendar's styles load with the pages that hold a date field, never in the first chunk (decision 103).
import '@mantine/dates/styles.css';
import { DATE_FORMAT, DATE_TIME_FORMAT, inputToWallClock, parseFrenchDate, parseFrenchDateTime, wallClockToInput } from './date-text';

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

/**
 * The expected format in the field's description, read with the field (aria-describedby), not only in its
 * placeholder, which goes away once typing starts (RGAA 11.10). A page's own description follows on its own line.
 */
function withFormat(format: string, description: ReactNode): ReactNode {
  const line = `Format\u00a0: ${format}`;
  if (!description) return line;
  return (
    <>
      <span style={{ display: 'block' }}>{line}</span>
      <span style={{ display: 'block' }}>{description}</span>
    </>
  );
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

/**
 * The French message for what was typed and left: a text naming no day, or a day the field refuses. The
 * field itself goes back to its last valid value on blur; the message says why.
 */
function useTypedError(parse: (text: string) => string | null, format: string, outOfRange: string) {
  const [typedError, setTypedError] = useState<string | null>(null);
  const onTyped = (event: FocusEvent<HTMLInputElement>, accepted: string | null) => {
    const text = event.currentTarget.value.trim();
    const parsed = text ? parse(text) : null;
    if (!text || (parsed !== null && parsed === accepted)) setTypedError(null);
    else if (parsed === null) setTypedError(`« ${text} » n’est pas une date valide : écrivez-la sous la forme ${format}.`);
    else setTypedError(outOfRange);
  };
  return { typedError, clear: () => setTypedError(null), onTyped };
}

/**
 * A date typed or picked as « 14/05/2011 » (decision 103); the value stays 'YYYY-MM-DD', as an
 * <input type="date"> gave it. `maxDate` is a 'YYYY-MM-DD'.
 */
export function DateField({ value, onChange, error, onBlur, maxDate, description, ...rest }: FieldProps & { maxDate?: string }) {
  const { typedError, clear, onTyped } = useTypedError(
    parseFrenchDate,
    'JJ/MM/AAAA',
    maxDate ? `La date ne peut pas dépasser le ${maxDate.split('-').reverse().join('/')}.` : 'Date refusée.',
  );
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
