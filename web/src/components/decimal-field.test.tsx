import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render';
import { DecimalField, parseDecimalField } from './decimal-field';

describe('DecimalField (decision 139)', () => {
  it('typing « 1,5 » or « 1.5 » gives 1.5, never 5', () => {
    const onChange = vi.fn();
    renderWithProviders(
      <DecimalField
        label="Seuil de qualification (points)"
        value={null}
        onChange={onChange}
        optional
        min={0}
        max={20}
        maxDecimals={2}
        unit="points"
      />,
    );
    const input = screen.getByLabelText('Seuil de qualification (points)');
    fireEvent.change(input, { target: { value: '1,5' } });
    expect(onChange).toHaveBeenLastCalledWith(1.5, null);
    expect((input as HTMLInputElement).value).toBe('1,5');
    fireEvent.change(input, { target: { value: '1.5' } });
    expect(onChange).toHaveBeenLastCalledWith(1.5, null);
    fireEvent.change(input, { target: { value: '' } });
    expect(onChange).toHaveBeenLastCalledWith(null, null);
  });

  it('refuses an impossible value with a message, keeping the last number', () => {
    const onChange = vi.fn();
    renderWithProviders(<DecimalField label="Seuil" value={3} onChange={onChange} min={0} max={20} maxDecimals={2} unit="points" />);
    const input = screen.getByLabelText('Seuil');
    expect((input as HTMLInputElement).value).toBe('3');
    fireEvent.change(input, { target: { value: '25' } });
    expect(onChange).toHaveBeenLastCalledWith(3, 'Au plus 20 points.');
    expect(screen.getByText('Au plus 20 points.')).toBeTruthy();
  });

  it('says what is wrong', () => {
    const bounds = { min: 0, max: 14, maxDecimals: 2, unit: 'points' };
    expect(parseDecimalField('1 000,5', { maxDecimals: 2 })).toEqual({ ok: true, value: 1000.5 });
    expect(parseDecimalField('-1', bounds)).toEqual({ ok: false, error: 'Le nombre ne peut pas être négatif.' });
    expect(parseDecimalField('1,125', bounds)).toEqual({ ok: false, error: 'Au plus 2 décimales.' });
    expect(parseDecimalField('douze', bounds)).toMatchObject({ ok: false, error: expect.stringMatching(/^Un nombre est attendu/) });
    expect(parseDecimalField('', bounds)).toEqual({ ok: false, error: 'Indiquez un nombre.' });
    expect(parseDecimalField('', { ...bounds, optional: true })).toEqual({ ok: true, value: null });
  });
});
