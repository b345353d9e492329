import type { AuthContext } from '../auth/context.js';
import type { Deps } from '../deps.js';
import type { FileStore } from '../files/store.js';
import { openFileStore } from '../files/store-select.js';
import { runPendingJobs as runJobs, type JobHandler } from '../jobs/worker.js';
import { labelCopy } from '../sorting/label.js';
import { INVITE_JOB, inviteJobHandler } from '../users/import.js';
import { DECODE_JOB, decodeJobHandler, type AutoLabel } from './decode-job.js';

/** The background jobs of the app, by kind (this worker runs them all). */
export function jobHandlers(deps: Deps, store: FileStore): Record<string, JobHandler> {
  return {
    [DECODE_JOB]: decodeJobHandler({ db: deps.db, store, secret: deps.config.jwtSecret, autoLabel: autoLabelWith(deps, store) }),
    // Invitations of pupils created by a bulk import (decision 68).
    [INVITE_JOB]: inviteJobHandler(deps),
  };
}

/**
 * A copy whose every page was read is labelled as a sorter would, through the same function
 * (sorting/label.ts), on behalf of the person who uploaded it: they are recorded as its labeller,
 * and the admin flag only lets the labelling pass the sorter's reservation check.
 */
function autoLabelWith(deps: Deps, store: FileStore): AutoLabel {
  return async (copy, entries) => {
    const uploader: AuthContext = { userId: copy.uploadedBy, isAdmin: true, isMember: false, isTeacher: false, institutionId: null };
    return labelCopy({ db: deps.db, store }, uploader, copy.id, entries);
  };
}

/** Runs every queued job now, one after another (tests; an instance started with JOBS_WORKER=off). */
export function runPendingJobs(deps: Deps): Promise<number> {
  return runJobs(deps, jobHandlers(deps, openFileStore(deps)));
}
