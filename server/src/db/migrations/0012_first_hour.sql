CREATE TABLE "institution_words" (
	"word" text NOT NULL,
	"institution_id" uuid NOT NULL,
	CONSTRAINT "institution_words_word_institution_id_pk" PRIMARY KEY("word","institution_id")
);
--> statement-breakpoint
CREATE INDEX "institution_words_prefix_idx" ON "institution_words" USING btree ("word" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "institution_words_institution_idx" ON "institution_words" USING btree ("institution_id");--> statement-breakpoint
-- The words a school is found by (decision « School search on the server »): name, address and UAI with
-- accents and case folded, split on anything but letters and digits. The web app's query words are folded
-- the same way (contract schoolSearchWords); the accents listed are those of French names and addresses.
CREATE FUNCTION institution_search_words(p_name text, p_address text, p_uai text) RETURNS SETOF text
LANGUAGE sql IMMUTABLE AS $$
  SELECT DISTINCT w FROM regexp_split_to_table(
    lower(translate(coalesce(p_name, '') || ' ' || coalesce(p_address, '') || ' ' || coalesce(p_uai, ''),
      'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖòóôõöÙÚÛÜùúûüÝýÿŸŒœÆæ’',
      'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOoooooUUUUuuuuYyyYŒœÆæ''')),
    '[^a-z0-9œæ]+') AS w
  WHERE w <> ''
$$;
--> statement-breakpoint
CREATE FUNCTION institution_words_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM institution_words WHERE institution_id = OLD.id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO institution_words (word, institution_id)
    SELECT w, NEW.id FROM institution_search_words(NEW.name, NEW.address, NEW.uai) AS w;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER institution_words_sync AFTER INSERT OR DELETE OR UPDATE OF name, address, uai ON institutions
FOR EACH ROW EXECUTE FUNCTION institution_words_sync();
--> statement-breakpoint
INSERT INTO institution_words (word, institution_id)
SELECT w, i.id FROM institutions i, institution_search_words(i.name, i.address, i.uai) AS w;
