/**
 * Saving a pupil's answer (decision 148), from the input's hook to the request: the queue that keeps every value
 * typed on this device until the server acknowledged it (docs/product.md#design-4), one queue per signed-in user
 * for the life of the tab, the copies (PDF, photos) sent again until they are stored, and the logout dialog that
 * waits for what is unsent. The chapter page renders with these. The session, on the first load, imports
 * `./session` instead (no input hooks nor uploads there); no file here imports zod.
 */
export { AnswerQueue, saveStateLabel, type SaveState } from './answer-queue';
export { classifySaveError, saveAnswer } from './requests';
export { useAnswerQueue } from './use-answer-queue';
export { useNumericAnswer } from './use-numeric-answer';
export { usePdfUpload } from './use-pdf-upload';
