ALTER TABLE "grading_pseudonyms" ADD COLUMN "copy_id" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "grading_pseudonyms_copy_id_uq" ON "grading_pseudonyms" USING btree ("copy_id");
