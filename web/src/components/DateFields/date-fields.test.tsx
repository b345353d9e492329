import { useState } from 'react';
import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DateField, DateTimeField } from './date-fields';
import { parseFrenchDate, parseFrenchDateTime } from './date-text';
import { folded } from '../../test/text';

function Birth({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <MantineProvider>
      <DateField label="Date de naissance" value={value} maxDate="2026-01-01" onChange={setValue} />
      <output>{value || 'vide'}</output>
    </MantineProvider>
  );
}

function Sitting({ initial, description }: { initial: string; description?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <MantineProvider>
      <DateTimeField label="Date et heure (heure de Paris)" description={description} value={value} onChange={setValue} />
      <output>{value || 'vide'}</output>
    </MantineProvider>
  );
}

describe('French date parsing (decision 103)', () => {
  it('reads day first, with or without leading zeros, and refuses days that do not exist', () => {
    expect(parseFrenchDate('14/05/2011')).toBe('2011-05-14');
    expect(parseFrenchDate(' 1/5/2011 ')).toBe('2011-05-01');
    expect(parseFrenchDate('05/14/2011')).toBeNull();
    expect(parseFrenchDate('31/02/2011')).toBeNull();
    expect(parseFrenchDate('2011-05-14')).toBeNull();
  });

  it('reads a time as « 20 h 35 », « 20h35 » or « 20:35 »', () => {
    for (const text of ['14/05/2026 20 h 35', '14/05/2026 20h35', '14/05/2026 20:35']) {
      expect(parseFrenchDateTime(text)).toBe('2026-05-14 20:35:00');
    }
    expect(parseFrenchDateTime('14/05/2026')).toBeNull();
    expect(parseFrenchDateTime('14/05/2026 24 h 10')).toBeNull();
  });
});

describe('DateField', () => {
  it('shows the value day first and takes a typed birth date as YYYY-MM-DD', () => {
    render(<Birth initial="2011-05-14" />);
    const input = screen.getByLabelText('Date de naissance') as HTMLInputElement;
    expect(input.value).toBe('14/05/2011');
    fireEvent.change(input, { target: { value: '3/9/2010' } });
    expect(screen.getByRole('status').textContent).toBe('2010-09-03');
    fireEvent.blur(input);
    expect(input.value).toBe('03/09/2010');
    expect(input.getAttribute('aria-invalid')).not.toBe('true');
  });

  it('says in French why a typed text was not taken, tied to the field', () => {
    render(<Birth initial="2011-05-14" />);
    const input = screen.getByLabelText('Date de naissance') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '31/02/2011' } });
    fireEvent.blur(input);
    const message = '« 31/02/2011 » n’est pas une date valide : écrivez-la sous la forme JJ/MM/AAAA.';
    expect(screen.getByText(folded(message))).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(
      document.getElementById(
        input
          .getAttribute('aria-describedby')!
          .split(' ')
          .find((id) => id.includes('error'))!,
      )?.textContent,
    ).toBe(message);
    expect(screen.getByRole('status').textContent).toBe('2011-05-14');
    fireEvent.change(input, { target: { value: '2/2/2027' } });
    fireEvent.blur(input);
    expect(screen.getByText('La date ne peut pas dépasser le 01/01/2026.')).toBeTruthy();
  });

  it('gives the expected format in its description, not only in the placeholder (RGAA 11.10)', () => {
    render(<Birth />);
    const described = { name: 'Date de naissance', description: 'Format\u00a0: JJ/MM/AAAA' };
    const input = screen.getByRole('textbox', described);
    expect(input.getAttribute('placeholder')).toBe('JJ/MM/AAAA');
    // Typed text hides the placeholder; the description stays.
    fireEvent.change(input, { target: { value: '3/9/2010' } });
    expect(screen.getByRole('textbox', described)).toBe(input);
  });

  it('empties the value when the text is erased', () => {
    render(<Birth initial="2011-05-14" />);
    fireEvent.change(screen.getByLabelText('Date de naissance'), { target: { value: '' } });
    expect(screen.getByRole('status').textContent).toBe('vide');
  });

  it('opens a calendar in French, weeks starting on Monday, with French names for its controls', async () => {
    render(<Birth initial="2011-05-14" />);
    fireEvent.focus(screen.getByLabelText('Date de naissance'));
    expect(await screen.findByRole('button', { name: 'Mois précédent' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Mois suivant', hidden: true })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Choisir le mois', hidden: true }).textContent).toBe('mai 2011');
    expect(screen.getAllByRole('columnheader', { hidden: true })[0].textContent).toBe('lu');
  });
});

describe('DateTimeField', () => {
  it('shows a wall clock as « 14/05/2026 20 h 35 » and gives back YYYY-MM-DDTHH:mm', () => {
    render(<Sitting initial="2026-05-14T20:35" />);
    const input = screen.getByLabelText('Date et heure (heure de Paris)') as HTMLInputElement;
    expect(input.value).toBe('14/05/2026 20 h 35');
    fireEvent.change(input, { target: { value: '01/12/2026 8:05' } });
    expect(screen.getByRole('status').textContent).toBe('2026-12-01T08:05');
  });

  it('gives the expected format in its description, before the page’s own description', () => {
    render(<Sitting initial="" description="Vide : la date d’ouverture de l’épreuve." />);
    expect(
      screen.getByRole('textbox', {
        name: 'Date et heure (heure de Paris)',
        description: 'Format : JJ/MM/AAAA HH h MM Vide : la date d’ouverture de l’épreuve.',
      }),
    ).toBeTruthy();
  });

  it('keeps the time when a day is picked in the calendar', async () => {
    render(<Sitting initial="2026-05-14T20:35" />);
    fireEvent.focus(screen.getByLabelText('Date et heure (heure de Paris)'));
    fireEvent.click(await screen.findByRole('button', { name: '20 mai 2026' }));
    expect(screen.getByRole('status').textContent).toBe('2026-05-20T20:35');
  });
});
