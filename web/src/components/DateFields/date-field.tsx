import { startTransition, useEffect, useState } from 'react';
import { TextInput } from '@mantine/core';
import { parseFrenchDate } from './date-text';
import { dateOutOfRange, frenchDay, useTypedError, withFormat } from './typed-date';
import type { DateFieldProps } from './date-fields';
import { loadOnce } from '../../lib/load-once';

type Picker = typeof import('./date-fields');
const pickerModule = loadOnce<Picker>(() => import('./date-fields'));

/**
 * The calendar's module (Mantine's DateInput, its popover, floating-ui and the calendar's styles: more than half
 * of the profile page's code), asked for once after the page's first paint, not before it. A failed load (the
 * network lost) leaves the typed field in place: it takes dates on its own.
 */
function usePicker(): Picker | undefined {
  const [loaded, setLoaded] = useState(pickerModule.loaded);
  useEffect(() => {
    if (loaded) return;
    let live = true;
    pickerModule.load().then(
      // A transition: React draws the calendar's field in slices, not in one task of the phone's main thread.
      (module) => live && startTransition(() => setLoaded(module)),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [loaded]);
  return loaded;
}

/**
 * A date typed or picked as « 14/05/2011 » (decision 103); the value stays 'YYYY-MM-DD'. Decision 122: until the
 * calendar's code is in, the same field without its calendar takes the date typed the same way, with the same
 * label, format and messages; it gives way to the calendar when it is in and the field is not being typed in, so
 * that nothing typed is lost.
 */
export function DateField(props: DateFieldProps) {
  const Loaded = usePicker();
  const [typing, setTyping] = useState(false);
  const [text, setText] = useState<string | null>(null);
  // The message for what was typed before the calendar came stays once it has come, until the next change.
  const typed = useTypedError(parseFrenchDate, 'JJ/MM/AAAA', dateOutOfRange(props.maxDate));
  const error = props.error || typed.typedError;
  const onChange = (value: string) => {
    typed.clear();
    props.onChange(value);
  };

  if (Loaded && !typing) return <Loaded.DateField {...props} error={error} onChange={onChange} />;

  const { value, maxDate, label, withAsterisk, description, inputWrapperOrder, placeholder = 'JJ/MM/AAAA', disabled, required } = props;
  return (
    <TextInput
      label={label}
      withAsterisk={withAsterisk}
      required={required}
      disabled={disabled}
      placeholder={placeholder}
      description={withFormat('JJ/MM/AAAA', description)}
      inputWrapperOrder={inputWrapperOrder}
      inputMode="numeric"
      autoComplete="off"
      value={text ?? (value ? frenchDay(value) : '')}
      error={error}
      onFocus={() => setTyping(true)}
      onChange={(event) => setText(event.currentTarget.value)}
      onBlur={(event) => {
        const typedText = event.currentTarget.value.trim();
        const parsed = typedText ? parseFrenchDate(typedText) : null;
        // As the calendar's field does: a real day in range is taken, an emptied field empties the value, and
        // anything else goes back to the last value taken, with a message saying why.
        const accepted = typedText === '' ? '' : parsed !== null && (!maxDate || parsed <= maxDate) ? parsed : value;
        typed.onTyped(event, accepted || null);
        if (accepted !== value) props.onChange(accepted);
        setText(null);
        setTyping(false);
        props.onBlur?.(event);
      }}
    />
  );
}
