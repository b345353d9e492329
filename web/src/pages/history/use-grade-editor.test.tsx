import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GradeSave } from '@olympe/contract';
import type { GradeSaveOutcome } from '../../api/grading';
import { filterGradeInput, GRADE_SAVE_DEBOUNCE_MS, useGradeEditor } from './use-grade-editor';

vi.mock('../../api/notify', () => ({ showNotice: vi.fn() }));

const initial = { answerId: 'a1', grade: null, grade_comment: '', hidden: false, grade_timestamp: null };

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('useGradeEditor', () => {
  it('saves 500 ms after the last edit, once, from the version it holds', async () => {
    const save = vi.fn(async (body: GradeSave): Promise<GradeSaveOutcome> => ({
      ok: true,
      saved: {
        answerId: body.answerId,
        grade: body.grade as string,
        grade_comment: body.grade_comment ?? '',
        hidden: !!body.hidden,
        grade_timestamp: '2026-01-01T10:00:00.001Z',
      },
    }));
    const { result } = renderHook(() => useGradeEditor(initial, save));
    act(() => result.current.edit({ grade: '1' }));
    act(() => result.current.edit({ grade: '12' }));
    expect(result.current.status).toBe('dirty');
    await act(async () => vi.advanceTimersByTime(GRADE_SAVE_DEBOUNCE_MS - 1));
    expect(save).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTime(1));
    expect(save).toHaveBeenCalledTimes(1);
    expect(save.mock.calls[0][0]).toMatchObject({ answerId: 'a1', grade: '12', expectedGradeTimestamp: null });
    expect(result.current.status).toBe('saved');
    expect(result.current.savedOnce).toBe(true);

    act(() => result.current.edit({ comment: 'Bien' }));
    await act(async () => vi.advanceTimersByTime(GRADE_SAVE_DEBOUNCE_MS));
    expect(save.mock.calls[1][0]).toMatchObject({ grade: '12', grade_comment: 'Bien', expectedGradeTimestamp: '2026-01-01T10:00:00.001Z' });
  });

  it('shows the other corrector’s version on a conflict and continues from it', async () => {
    const save = vi.fn(async (_body: GradeSave): Promise<GradeSaveOutcome> => ({
      ok: false,
      conflict: {
        message: 'Cette copie a été modifiée…',
        current: { answerId: 'a1', grade: '5', grade_comment: 'Autre', hidden: true, grade_timestamp: '2026-01-01T11:00:00.000Z' },
      },
    }));
    const { result } = renderHook(() => useGradeEditor(initial, save));
    act(() => result.current.edit({ grade: '3' }));
    await act(async () => vi.advanceTimersByTime(GRADE_SAVE_DEBOUNCE_MS));
    expect(result.current.status).toBe('conflict');
    expect(result.current.conflict).toBe('Cette copie a été modifiée…');
    expect(result.current.form).toEqual({ grade: '5', comment: 'Autre', hidden: true, items: [], annotations: [], bankComments: [] });
    expect(result.current.savedOnce).toBe(false);

    act(() => result.current.edit({ grade: '6' }));
    await act(async () => vi.advanceTimersByTime(GRADE_SAVE_DEBOUNCE_MS));
    expect(save.mock.calls[1][0]).toMatchObject({ grade: '6', expectedGradeTimestamp: '2026-01-01T11:00:00.000Z' });
  });

  it('is not « saved » before a save of this copy succeeded, and flush says whether the grade is stored', async () => {
    const save = vi.fn(async (body: GradeSave): Promise<GradeSaveOutcome> => ({
      ok: true,
      saved: {
        answerId: body.answerId,
        grade: body.grade as string,
        grade_comment: '',
        hidden: false,
        grade_timestamp: '2026-01-01T10:00:00.001Z',
      },
    }));
    const { result } = renderHook(() => useGradeEditor(initial, save));
    expect(result.current.status).toBe('idle');
    // Typed then undone: nothing was saved, so still not « Enregistré ».
    act(() => result.current.edit({ grade: '2' }));
    act(() => result.current.edit({ grade: '' }));
    await act(async () => vi.advanceTimersByTime(GRADE_SAVE_DEBOUNCE_MS));
    expect(save).not.toHaveBeenCalled();
    expect(result.current.status).toBe('idle');
    let stored = true;
    await act(async () => {
      stored = await result.current.flush();
    });
    expect(stored).toBe(false);

    act(() => result.current.edit({ grade: '3' }));
    await act(async () => {
      stored = await result.current.flush();
    });
    expect(save).toHaveBeenCalledTimes(1);
    expect(stored).toBe(true);
    expect(result.current.status).toBe('saved');
  });

  it('does not send an invalid grade', async () => {
    const save = vi.fn();
    const { result } = renderHook(() => useGradeEditor(initial, save));
    act(() => result.current.edit({ grade: '1.2.3' }));
    await act(async () => vi.advanceTimersByTime(GRADE_SAVE_DEBOUNCE_MS));
    expect(save).not.toHaveBeenCalled();
    expect(result.current.status).toBe('invalid');
  });

  it('refuses a grade above the exercise’s maximum without sending it (X passes)', async () => {
    const save = vi.fn(async (body: GradeSave): Promise<GradeSaveOutcome> => ({
      ok: true,
      saved: {
        answerId: body.answerId,
        grade: body.grade as string,
        grade_comment: '',
        hidden: false,
        grade_timestamp: '2026-01-01T10:00:00.001Z',
      },
    }));
    const { result } = renderHook(() => useGradeEditor(initial, save, 2));
    act(() => result.current.edit({ grade: '2.5' }));
    await act(async () => vi.advanceTimersByTime(GRADE_SAVE_DEBOUNCE_MS));
    expect(save).not.toHaveBeenCalled();
    expect(result.current.status).toBe('aboveMax');
    act(() => result.current.edit({ grade: 'X', items: ['i1'] }));
    await act(async () => vi.advanceTimersByTime(GRADE_SAVE_DEBOUNCE_MS));
    expect(save.mock.calls[0][0]).toMatchObject({ grade: 'X', items: ['i1'] });
  });

  it('keeps digits, the dot and X in the grade field', () => {
    expect(filterGradeInput('1,5a')).toBe('1.5');
    expect(filterGradeInput('x')).toBe('X');
    expect(filterGradeInput('-3 ')).toBe('3');
  });
});
