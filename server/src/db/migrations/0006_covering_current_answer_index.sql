DROP INDEX "answers_current_idx";--> statement-breakpoint
-- Covering index written by hand (drizzle cannot express INCLUDE); see the note in schema.ts.
CREATE INDEX "answers_current_idx" ON "answers" USING btree ("exercise_id","user_id","seq" DESC,"created_at" DESC) INCLUDE ("answer","grade") WHERE withdrawn_at IS NULL;
