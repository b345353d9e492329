import { useState } from 'react';
import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DateField } from './date-field';

// The calendar's module arrives when the test says so: until then the page has only the typed field.
const calendar = vi.hoisted(() => {
  let open!: () => void;
  const arrived = new Promise<void>((resolve) => (open = resolve));
  return { open, arrived, asked: 0 };
});
vi.mock('./date-fields', async (importOriginal) => {
  calendar.asked += 1;
  await calendar.arrived;
  return importOriginal();
});

const changes: string[] = [];

function Birth({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <MantineProvider>
      <DateField
        label="Date de naissance"
        value={value}
        maxDate="2026-01-01"
        onChange={(next) => {
          changes.push(next);
          setValue(next);
        }}
      />
      <output data-testid="value">{value}</output>
    </MantineProvider>
  );
}

const field = () => screen.getByLabelText('Date de naissance') as HTMLInputElement;
const type = (text: string) => {
  fireEvent.focus(field());
  fireEvent.change(field(), { target: { value: text } });
  fireEvent.blur(field());
};
/** Mantine's DateInput: the calendar's field opens a dialog of days when clicked. */
const isCalendarField = () => field().closest('[data-dates-input]') !== null || field().getAttribute('aria-haspopup') === 'dialog';

describe('DateField before its calendar has come (decision 122)', () => {
  it('asks for the calendar once the page is shown, and meanwhile takes a typed date with the same format and messages', async () => {
    changes.length = 0;
    const { unmount } = render(<Birth initial="2011-03-14" />);
    expect(field().value).toBe('14/03/2011');
    expect(isCalendarField()).toBe(false);
    await waitFor(() => expect(calendar.asked).toBe(1));
    expect(screen.getByText(/^Format.: JJ\/MM\/AAAA$/)).toBeTruthy();

    type('1/5/2010');
    expect(screen.getByTestId('value').textContent).toBe('2010-05-01');
    expect(field().value).toBe('01/05/2010');

    type('31/02/2010');
    expect(screen.getByText('« 31/02/2010 » n’est pas une date valide : écrivez-la sous la forme JJ/MM/AAAA.')).toBeTruthy();
    expect(screen.getByTestId('value').textContent).toBe('2010-05-01');
    expect(field().value).toBe('01/05/2010');

    type('14/05/2030');
    expect(screen.getByText('La date ne peut pas dépasser le 01/01/2026.')).toBeTruthy();
    expect(screen.getByTestId('value').textContent).toBe('2010-05-01');

    type('');
    expect(screen.getByTestId('value').textContent).toBe('');
    expect(changes).toEqual(['2010-05-01', '']);
    unmount();
  });

  it('gives way to the calendar when it comes, but not while the pupil is typing: nothing typed is lost', async () => {
    changes.length = 0;
    render(<Birth />);
    fireEvent.focus(field());
    fireEvent.change(field(), { target: { value: '14/03/20' } });
    await act(async () => {
      calendar.open();
      // The same module the field asked for: once it is here, the field has been told.
      await import('./date-fields');
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    // Still the typed field, with what was typed.
    expect(isCalendarField()).toBe(false);
    expect(field().value).toBe('14/03/20');
    fireEvent.change(field(), { target: { value: '14/03/2011' } });
    fireEvent.blur(field());
    await waitFor(() => expect(isCalendarField()).toBe(true));
    expect(field().value).toBe('14/03/2011');
    expect(screen.getByTestId('value').textContent).toBe('2011-03-14');
    expect(changes).toEqual(['2011-03-14']);
  });

  it('is the calendar at once on a later page, the module being in', async () => {
    render(<Birth initial="2011-03-14" />);
    await waitFor(() => expect(isCalendarField()).toBe(true));
    expect(field().value).toBe('14/03/2011');
    fireEvent.click(field());
    expect(await screen.findByRole('button', { name: 'Mois suivant' })).toBeTruthy();
  });
});
