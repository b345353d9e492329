CREATE TABLE "file_blobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "unlabeled_file_uq" ON "unlabeled_answers" USING btree ("file_id");--> statement-breakpoint
ALTER TABLE "file_blobs" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;
