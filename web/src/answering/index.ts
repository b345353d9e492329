/**
 * Saving a pupil's answer (decision 148), from the input's hook to the request: the queue that keeps every value
 * typed on this device until the server acknowledged it (docs/product.md#design-4), one queue per signed-in user
 * for the life of the tab, the copies (PDF, photos) sent again until they are stored, and the logout dialog that
 * waits for what is unsent. The chapter page renders with these; the session starts and ends the queues. No zod:
 * the session reaches this folder on the first load.
 */
export { AnswerQueue, saveStateLabel, type SaveState } from './answer-queue';
export { classifySaveError, saveAnswer } from './requests';
export { answerQueueFor, flushAnswers, forgetAnswers, hasUnsentAnswers, keepOnlyAnswersOf, whenAnswersSent } from './user-queues';
export { UNSENT_ANSWERS_TEXT, UnsentAnswersModal, type LogoutStep } from './unsent-answers-modal';
export { useAnswerQueue } from './use-answer-queue';
export { useNumericAnswer } from './use-numeric-answer';
export { usePdfUpload } from './use-pdf-upload';
