/**
 * The desk's one shortcut: Ctrl + Entrée (⌘ + Entrée on a Mac) saves the grade and opens the next
 * copy. It works from inside the grade field and the comment (that is where the hands are), and a
 * plain Enter keeps its own meaning everywhere (a new line in the comment, a tick on a checkbox).
 */
export function isNextCopyShortcut(
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey' | 'isComposing'>,
): boolean {
  return event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && !event.isComposing;
}
