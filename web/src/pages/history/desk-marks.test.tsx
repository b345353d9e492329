import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Annotation, GradeSave } from '@olympe/contract';
import type { GradeSaveOutcome } from '../../api/grading';
import { AnnotationLayer, AnnotationList, MarksToolbar, useMarks } from '../../components/AnnotationLayer';
import { renderWithProviders } from '../../test/render';
import { GRADE_SAVE_DEBOUNCE_MS, useGradeEditor } from './use-grade-editor';

/** The marks on a copy (decision 159): the layer, the toolbar and the list on the desk's grade editor, as desk-workspace wires them. */
vi.mock('../../api/notify', () => ({ showNotice: vi.fn() }));

const initial = { answerId: 'a1', grade: null, grade_comment: '', hidden: false, grade_timestamp: null };

function Desk({ save }: { save: (body: GradeSave) => Promise<GradeSaveOutcome> }) {
  const editor = useGradeEditor(initial, save);
  const marks = useMarks(editor.form.annotations, (annotations) => editor.edit({ annotations }));
  return (
    <>
      <MarksToolbar state={marks} />
      <div style={{ position: 'relative' }}>
        <AnnotationLayer page={0} state={marks} itemText={() => undefined} />
      </div>
      <AnnotationList state={marks} pages={2} itemText={() => undefined} />
      <p data-testid="status">{editor.status}</p>
    </>
  );
}

function renderDesk() {
  const save = vi.fn(async (body: GradeSave): Promise<GradeSaveOutcome> => ({
    ok: true,
    saved: { ...body, grade_timestamp: '2026-01-01T10:00:00.000Z' } as never,
  }));
  renderWithProviders(<Desk save={save} />);
  const layer = screen.getByTestId('annotation-layer-0');
  // A page drawn 500 × 700 px at the top left of the window.
  layer.getBoundingClientRect = () => ({ left: 0, top: 0, width: 500, height: 700, right: 500, bottom: 700, x: 0, y: 0, toJSON: () => '' });
  return { save, layer };
}

/** A stroke drawn with one pointer (a finger: pointerType touch) through these pixels. */
function draw(layer: Element, points: Array<[number, number]>) {
  const [first, ...rest] = points;
  const at = ([clientX, clientY]: [number, number]) => ({ pointerId: 7, pointerType: 'touch', isPrimary: true, clientX, clientY });
  fireEvent.pointerDown(layer, at(first!));
  for (const p of rest) fireEvent.pointerMove(layer, at(p));
  fireEvent.pointerUp(layer, at(rest.at(-1) ?? first!));
}

const lastMarks = (save: ReturnType<typeof renderDesk>['save']) => save.mock.lastCall?.[0].annotations as Annotation[];

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => vi.useRealTimers());

describe('The marks on the copy', () => {
  it('draws an ink stroke with the pen (a finger does not scroll then) and sends it with the grade', async () => {
    const { save, layer } = renderDesk();
    expect(layer.style.touchAction).toBe('auto');
    fireEvent.click(screen.getByText('Stylo'));
    expect(layer.style.touchAction).toBe('none');
    draw(layer, [
      [50, 70],
      [100, 140],
      [150, 210],
    ]);
    expect(layer.querySelector('[data-kind="ink"] path')?.getAttribute('d')).toMatch(/^M[\d.]+,[\d.]+L/);
    expect(screen.getByTestId('status').textContent).toBe('dirty');
    await act(async () => vi.advanceTimersByTime(GRADE_SAVE_DEBOUNCE_MS));
    expect(save).toHaveBeenCalledTimes(1);
    const [ink] = lastMarks(save);
    expect(ink).toMatchObject({
      kind: 'ink',
      page: 0,
      color: 'red',
      points: [
        [0.1, 0.1],
        [0.2, 0.2],
        [0.3, 0.3],
      ],
    });
    expect(screen.getByText(/Page 1, en haut à gauche : Trait à main levée/)).toBeTruthy();
  });

  it('undoes and redoes with the buttons and with Ctrl+Z / Ctrl+Maj+Z, and the save follows', async () => {
    const { save, layer } = renderDesk();
    fireEvent.click(screen.getByText('Juste'));
    draw(layer, [[250, 350]]);
    fireEvent.click(screen.getByText('Faux'));
    draw(layer, [[400, 100]]);
    expect(layer.querySelectorAll('[data-kind="tick"], [data-kind="cross"]')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Annuler' }));
    expect(layer.querySelector('[data-kind="cross"]')).toBeNull();
    fireEvent.keyDown(window, { key: 'z', ctrlKey: true });
    expect(layer.querySelector('[data-kind="tick"]')).toBeNull();
    expect(screen.getByRole('button', { name: 'Annuler' })).toHaveProperty('disabled', true);
    fireEvent.keyDown(window, { key: 'Z', ctrlKey: true, shiftKey: true });
    expect(layer.querySelector('[data-kind="tick"]')).not.toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Rétablir' }));
    expect(layer.querySelector('[data-kind="cross"]')).not.toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Annuler' }));
    await act(async () => vi.advanceTimersByTime(GRADE_SAVE_DEBOUNCE_MS));
    expect(lastMarks(save)).toEqual([{ id: expect.any(String), page: 0, kind: 'tick', x: 0.5, y: 0.5 }]);
  });

  it('adds a note from the keyboard list by page and region, moves it with the arrows and deletes it', async () => {
    const { save, layer } = renderDesk();
    const form = screen.getByRole('group', { name: 'Ajouter une note' });
    fireEvent.click(within(form).getByLabelText('Emplacement'));
    fireEvent.click(await screen.findByRole('option', { name: 'en bas à droite', hidden: true }));
    fireEvent.change(within(form).getByRole('textbox', { name: 'Texte de la nouvelle annotation' }), {
      target: { value: 'Justifier ce passage' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Ajouter la note' }));
    expect(screen.getByText('Page 1, en bas à droite : Note : Justifier ce passage')).toBeTruthy();
    expect(layer.querySelector('[data-kind="note"]')?.textContent).toBe('Justifier ce passage');
    const move = screen.getByRole('button', { name: 'Déplacer\u00a0: Note\u00a0: Justifier ce passage' });
    for (let i = 0; i < 10; i++) fireEvent.keyDown(move, { key: 'ArrowUp' });
    expect(screen.getByText('Page 1, au milieu à droite : Note : Justifier ce passage')).toBeTruthy();
    await act(async () => vi.advanceTimersByTime(GRADE_SAVE_DEBOUNCE_MS));
    expect(lastMarks(save)).toEqual([
      { id: expect.any(String), page: 0, kind: 'note', x: 0.8333, y: 0.6333, text: 'Justifier ce passage' },
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Supprimer\u00a0: Note\u00a0: Justifier ce passage' }));
    expect(screen.getByText('Aucune annotation sur cette copie.')).toBeTruthy();
  });
});
