import { useState, type FocusEvent, type ReactNode } from 'react';

/**
 * The expected format in the field's description, read with the field (aria-describedby), not only in its
 * placeholder, which goes away once typing starts (RGAA 11.10). A page's own description follows on its own line.
 */
export function withFormat(format: string, description: ReactNode): ReactNode {
  const line = `Format\u00a0: ${format}`;
  if (!description) return line;
  return (
    <>
      <span style={{ display: 'block' }}>{line}</span>
      <span style={{ display: 'block' }}>{description}</span>
    </>
  );
}

/**
 * The French message for what was typed and left: a text naming no day, or a day the field refuses. The
 * field itself goes back to its last valid value on blur; the message says why.
 */
export function useTypedError(parse: (text: string) => string | null, format: string, outOfRange: string) {
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

/** What a date field says of a real day it refuses: after `maxDate` ('YYYY-MM-DD'), or any refusal. */
export const dateOutOfRange = (maxDate?: string) => (maxDate ? `La date ne peut pas dépasser le ${frenchDay(maxDate)}.` : 'Date refusée.');

/** A 'YYYY-MM-DD' as typed and shown, « 14/05/2011 ». */
export const frenchDay = (day: string) => day.split('-').reverse().join('/');
