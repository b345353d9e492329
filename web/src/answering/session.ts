/**
 * What the session needs of answering (decision 148): it starts and ends each user's queue and asks before a logout
 * that would lose unsent answers. The session is on the first load: it imports this file, not index.ts, so that the
 * input hooks and the copies' uploads stay in the chapter page's files.
 */
export { answerQueueFor, flushAnswers, forgetAnswers, hasUnsentAnswers, keepOnlyAnswersOf, whenAnswersSent } from './user-queues';
export { UNSENT_ANSWERS_TEXT, UnsentAnswersModal, type LogoutStep } from './unsent-answers-modal';
