import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render';
import { sortRows, VirtualTable, type VirtualColumn } from './VirtualTable';

interface Row {
  id: string;
  name: string | null;
}
const byName = (r: Row) => r.name;
const columns: VirtualColumn<Row>[] = [
  { key: 'name', header: 'Nom', cell: (r) => r.name, sortValue: byName },
  { key: 'id', header: 'Id', cell: (r) => r.id },
];

describe('sortRows', () => {
  it('ignores accents and case, keeps empty values last, is stable', () => {
    const rows: Row[] = [
      { id: '1', name: 'zoé' },
      { id: '2', name: null },
      { id: '3', name: 'Élise' },
      { id: '4', name: 'eric' },
      { id: '5', name: 'Eric' },
    ];
    expect(sortRows(rows, byName, 'asc').map((r) => r.id)).toEqual(['3', '4', '5', '1', '2']);
    expect(sortRows(rows, byName, 'desc').map((r) => r.id)).toEqual(['1', '4', '5', '3', '2']);
  });

  it('sorts 10,000 rows fast once keys are cached (time printed)', () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({ id: String(i), name: `Lefèvre ${(i * 7919) % 10_000}` }));
    const first = performance.now();
    sortRows(rows, byName, 'asc');
    const firstMs = performance.now() - first;
    const again: string[] = [];
    for (let k = 2; k < 7; k++) {
      const t = performance.now();
      sortRows(
        rows.filter((_, i) => i % k !== 0),
        byName,
        'asc',
      );
      again.push((performance.now() - t).toFixed(1));
    }
    console.log(
      `[VirtualTable] sort 10,000 rows: first ${firstMs.toFixed(1)} ms (keys computed); filtered subsets again ${again.join(', ')} ms`,
    );
  });
});

describe('VirtualTable', () => {
  const many: Row[] = Array.from({ length: 5_000 }, (_, i) => ({ id: `r${i}`, name: `Nom ${String(i).padStart(4, '0')}` }));

  it('renders a real table with the full row count but only a window of rows', () => {
    renderWithProviders(<VirtualTable label="Membres" rows={many} columns={columns} rowKey={(r) => r.id} height={400} />);
    const table = screen.getByRole('table', { name: 'Membres' });
    expect(table.getAttribute('aria-rowcount')).toBe('5001');
    const rows = within(table).getAllByRole('row');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(100);
    expect(screen.getByRole('columnheader', { name: /Nom/ })).toBeTruthy();
  });

  it('sorts on a header click and says so with aria-sort', () => {
    const rows: Row[] = [
      { id: 'a', name: 'Bernard' },
      { id: 'b', name: 'Abel' },
    ];
    renderWithProviders(
      <VirtualTable
        label="T"
        rows={rows}
        columns={columns}
        rowKey={(r) => r.id}
        height={300}
        initialSort={{ key: 'name', direction: 'asc' }}
      />,
    );
    const header = screen.getByRole('columnheader', { name: /Nom/ });
    expect(header.getAttribute('aria-sort')).toBe('ascending');
    const names = () =>
      screen
        .getAllByRole('row')
        .slice(1)
        .map((r) => within(r).getAllByRole('cell')[0].textContent);
    expect(names()).toEqual(['Abel', 'Bernard']);
    fireEvent.click(within(header).getByRole('button'));
    expect(header.getAttribute('aria-sort')).toBe('descending');
    expect(names()).toEqual(['Bernard', 'Abel']);
  });

  it('shows the empty text in one row', () => {
    renderWithProviders(<VirtualTable label="T" rows={[]} columns={columns} rowKey={(r) => r.id} height={300} emptyText="Aucun membre." />);
    expect(screen.getByText('Aucun membre.')).toBeTruthy();
  });
});

describe('cells with their full text', () => {
  it('hold the whole text beside a cut one, for hovering (title) and for a focused row', () => {
    const long = 'Un commentaire bien plus long que les quarante caractères affichés';
    const cut: VirtualColumn<Row>[] = [
      { key: 'name', header: 'Nom', cell: (r) => (r.name ?? '').slice(0, 10) + '…', fullText: (r) => r.name ?? '' },
      { key: 'id', header: 'Id', cell: (r) => r.id, fullText: (r) => r.id },
    ];
    renderWithProviders(
      <VirtualTable rows={[{ id: 'r1', name: long }]} columns={cut} rowKey={(r) => r.id} height={300} label="Commentaires" />,
    );
    const cell = screen.getByRole('cell', { name: new RegExp(long) });
    expect(cell.querySelector('[title]')?.getAttribute('title')).toBe(long);
    // The cut text and the whole one, each in its span (CSS shows the whole one when the row has the focus).
    expect(within(cell).getByText('Un comment…')).toBeTruthy();
    expect(within(cell).getByText(long)).toBeTruthy();
    // A cell that shows all its text holds it once.
    expect(screen.getAllByText('r1')).toHaveLength(1);
  });
});
