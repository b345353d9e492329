import type { Receipt, ReceiptLine, SessionStateView } from '@olympe/contract';
import type { ChapterContext } from './service.js';
import { extraMs } from './state.js';

/** The state as the API presents it (instants as ISO strings). */
export function presentSessionState(ctx: ChapterContext): SessionStateView {
  const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
  // The pupil's own window end and end: pushed back by their extra time and extensions.
  const extra = ctx.rule ? extraMs(ctx.rule, ctx.allowance) : 0;
  const accessEnd = ctx.rule?.accessEnd ? new Date(ctx.rule.accessEnd.getTime() + extra) : null;
  const endTime = ctx.session && ctx.state.timed && ctx.state.deadline ? ctx.state.deadline : ctx.session?.endTime;
  return {
    status: ctx.state.status,
    remainingTime: ctx.state.remainingTime,
    timed: ctx.state.timed,
    // Shown before the pupil starts (docs/product.md#spec-2 start button): what they commit to.
    // The pupil's own duration: their extra time and extensions included.
    duration: ctx.state.timed && ctx.rule?.timeDuration ? Math.round((ctx.rule.timeDuration * 60_000 + extra) / 1000) : null,
    accessStart: iso(ctx.rule?.accessStart),
    accessEnd: iso(accessEnd),
    startedAt: iso(ctx.session?.startedAt),
    endTime: iso(endTime),
    deadline: iso(ctx.state.deadline),
    serverTime: new Date().toISOString(),
    // Only once finished: the state's shape stays what it was for every other session.
    ...(ctx.state.finished ? { finishedAt: iso(ctx.session?.finishedAt) } : {}),
  };
}

/** GET /chapter/receipt/{id}: the pupil's lines (without the answers' ids), the code and when it was made. */
export function presentReceipt(input: {
  ctx: ChapterContext;
  chapterId: string;
  userId: string;
  pupil: { firstName: string | null; lastName: string | null; email: string };
  lines: Array<ReceiptLine & { answerId: string | null }>;
  code: string;
}): Receipt {
  const { ctx, pupil } = input;
  return {
    chapter: { _id: input.chapterId, title: ctx.chapter.title },
    user: { _id: input.userId, name: `${pupil.firstName ?? ''} ${pupil.lastName ?? ''}`.trim() || pupil.email },
    endedAt: ctx.state.deadline?.toISOString() ?? null,
    finished: !!ctx.state.finished,
    lines: input.lines.map(({ answerId: _answerId, ...line }) => line),
    code: input.code,
    generatedAt: new Date().toISOString(),
  };
}
