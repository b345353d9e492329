ALTER TABLE "files" ADD COLUMN "sha256" text;--> statement-breakpoint
ALTER TABLE "unlabeled_answers" ADD COLUMN "page_readings" jsonb;--> statement-breakpoint
ALTER TABLE "unlabeled_answers" ADD COLUMN "read_error" text;--> statement-breakpoint
CREATE INDEX "files_sha256_idx" ON "files" USING btree ("sha256");