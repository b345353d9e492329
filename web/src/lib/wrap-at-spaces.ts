import type { CSSProperties } from 'react';

/**
 * Text that wraps between words only, hyphenated where the browser knows French (decision 141): a narrow column on a
 * phone used to cut « Arithmétique » into « Arithmétiq » and « ue ». The element (or an ancestor) carries `lang="fr"`.
 */
export const WRAP_AT_SPACES: CSSProperties = { overflowWrap: 'normal', wordBreak: 'normal', hyphens: 'auto' };
