import { useState, type ReactNode } from 'react';
import { TextInput } from '@mantine/core';
import { formatPoints } from '@olympe/contract';
import { parseFrenchNumber } from '@olympe/contract/numeric';

/** What a decimal field holds: a number, nothing (an empty optional field), or the reason it is refused. */
export type DecimalParse = { ok: true; value: number | null } | { ok: false; error: string };

export interface DecimalBounds {
  min?: number;
  max?: number;
  /** Most decimals accepted (2: « 1,25 »). */
  maxDecimals?: number;
  /** An empty field is `null`; otherwise it is refused. */
  optional?: boolean;
  /** The unit said in the messages, plural (« points »). */
  unit?: string;
}

/**
 * Decision 139: an admin's number as typed in French (« 1,5 », « 1.5 », « 1 000 ») or refused with a
 * message saying what is expected; never silently turned into another number.
 */
export function parseDecimalField(text: string, bounds: DecimalBounds = {}): DecimalParse {
  const unit = bounds.unit ? ` ${bounds.unit}` : '';
  if (text.trim() === '') return bounds.optional ? { ok: true, value: null } : { ok: false, error: 'Indiquez un nombre.' };
  if (/^\s*[-−]/.test(text) && (bounds.min ?? 0) >= 0) return { ok: false, error: 'Le nombre ne peut pas être négatif.' };
  const parsed = parseFrenchNumber(text);
  if (!parsed.ok) return { ok: false, error: 'Un nombre est attendu, avec une virgule pour les décimales (par exemple 1,5).' };
  const decimals = (parsed.canonical.split(',')[1] ?? '').length;
  if (bounds.maxDecimals !== undefined && decimals > bounds.maxDecimals) {
    return {
      ok: false,
      error:
        bounds.maxDecimals === 0
          ? 'Un nombre entier est attendu.'
          : `Au plus ${bounds.maxDecimals} décimale${bounds.maxDecimals > 1 ? 's' : ''}.`,
    };
  }
  const value = Number(parsed.value.num) / Number(parsed.value.den);
  if (bounds.min !== undefined && value < bounds.min) return { ok: false, error: `Au moins ${formatPoints(bounds.min)}${unit}.` };
  if (bounds.max !== undefined && value > bounds.max + 1e-9) return { ok: false, error: `Au plus ${formatPoints(bounds.max)}${unit}.` };
  return { ok: true, value };
}

interface Props extends DecimalBounds {
  label: ReactNode;
  description?: ReactNode;
  value: number | null;
  /** Each keystroke: the number typed (null when empty), or the error shown under the field. */
  onChange: (value: number | null, error: string | null) => void;
  disabled?: boolean;
  maw?: number;
  /** The field left: where a screen saves what was typed (the jury's board). */
  onBlur?: () => void;
}

/** A decimal number field of the admin screens (decision 139): French decimals, bounds checked as typed. */
export function DecimalField({ label, description, value, onChange, disabled, maw, onBlur, ...bounds }: Props) {
  const [text, setText] = useState(value === null ? '' : formatPoints(value));
  const [error, setError] = useState<string | null>(null);
  return (
    <TextInput
      label={label}
      description={description}
      inputMode="decimal"
      autoComplete="off"
      disabled={disabled}
      maw={maw}
      value={text}
      error={error}
      onBlur={onBlur}
      onChange={(event) => {
        const typed = event.currentTarget.value;
        setText(typed);
        const parsed = parseDecimalField(typed, bounds);
        setError(parsed.ok ? null : parsed.error);
        onChange(parsed.ok ? parsed.value : value, parsed.ok ? null : parsed.error);
      }}
    />
  );
}
