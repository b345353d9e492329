import { describe, expect, it } from 'vitest';
import { isNextCopyShortcut } from './desk-keys';

const key = (over: Partial<KeyboardEvent>) => ({
  key: 'Enter',
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  isComposing: false,
  ...over,
});

describe('the desk shortcut', () => {
  it('is Ctrl + Entrée (⌘ + Entrée on a Mac) and nothing else', () => {
    expect(isNextCopyShortcut(key({ ctrlKey: true }))).toBe(true);
    expect(isNextCopyShortcut(key({ metaKey: true }))).toBe(true);
    expect(isNextCopyShortcut(key({}))).toBe(false);
    expect(isNextCopyShortcut(key({ ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(isNextCopyShortcut(key({ ctrlKey: true, key: 'n' }))).toBe(false);
    expect(isNextCopyShortcut(key({ ctrlKey: true, isComposing: true }))).toBe(false);
  });
});
