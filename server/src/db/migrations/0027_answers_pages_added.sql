-- hand-written (decision 139): sorting more pages onto a graded copy keeps its grade and flags it to its
-- correctors until one of them saves a grade again or dismisses the notice.
ALTER TABLE "answers" ADD COLUMN "pages_added_at" timestamp with time zone;
--> statement-breakpoint
CREATE INDEX "answers_pages_added_idx" ON "answers" USING btree ("exercise_id","user_id") WHERE "answers"."pages_added_at" IS NOT NULL;
